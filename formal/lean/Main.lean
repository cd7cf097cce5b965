import KgFormal

def main : IO UInt32 := do
  let old := (KgFormal.explore (KgFormal.Durability.model false)).isSome
  let now := (KgFormal.explore (KgFormal.Durability.model true)).isNone
  IO.println s!"durability: old design counterexample found {old}; today's design holds {now}"
  let faOld := (KgFormal.explore (KgFormal.FailedAppend.model false)).isSome
  let faNow := (KgFormal.explore (KgFormal.FailedAppend.model true)).isNone
  IO.println s!"failed_append: old design counterexample found {faOld}; today's design holds {faNow}"
  let pdOld := (KgFormal.explore (KgFormal.PushDelivery.model 0)).isSome
  let pdWin := (KgFormal.explore (KgFormal.PushDelivery.model 1)).isSome
  let pdNow := (KgFormal.explore (KgFormal.PushDelivery.model 2)).isNone
  IO.println s!"push_delivery: marked-at-build found {pdOld}; window-reoffer found {pdWin}; today's holds {pdNow}"
  let sbShare := (KgFormal.explore (KgFormal.SessionBinding.model 0)).isSome
  let sbSteal := (KgFormal.explore (KgFormal.SessionBinding.model 1)).isSome
  let sbNow := (KgFormal.explore (KgFormal.SessionBinding.model 2)).isNone
  IO.println s!"session_binding: share found {sbShare}; steal found {sbSteal}; today's holds {sbNow}"
  let rnOld := (KgFormal.explore (KgFormal.RenameLevels.model false)).isSome
  let rnNow := (KgFormal.explore (KgFormal.RenameLevels.model true)).isNone
  IO.println s!"rename_levels: unchecked found {rnOld}; today's holds {rnNow}"
  let shOld := (KgFormal.explore (KgFormal.ShimRetry.model true)).isSome
  let shNow := (KgFormal.explore (KgFormal.ShimRetry.model false)).isNone
  IO.println s!"shim_retry: retry-any found {shOld}; today's holds {shNow}"
  let cdGuard := (KgFormal.explore (KgFormal.ChoreDispatch.model 0)).isSome
  let cdRecheck := (KgFormal.explore (KgFormal.ChoreDispatch.model 1)).isSome
  let cdStamp := (KgFormal.explore (KgFormal.ChoreDispatch.model 2)).isSome
  let cdNow := (KgFormal.explore (KgFormal.ChoreDispatch.model 3)).isNone
  let cdSilent := (KgFormal.explore (KgFormal.ChoreDispatch.model 4)).isSome
  IO.println s!"chore_dispatch: no-guard found {cdGuard}; no-recheck found {cdRecheck}; decide-stamp found {cdStamp}; silent crash found {cdSilent}; today's holds {cdNow}"
  let pgBuild := (KgFormal.explore (KgFormal.Paging.model 0)).isSome
  let pgPeek := (KgFormal.explore (KgFormal.Paging.model 1)).isSome
  let pgAppend := (KgFormal.explore (KgFormal.Paging.model 2)).isSome
  let pgNow := (KgFormal.explore (KgFormal.Paging.model 3)).isNone
  IO.println s!"paging: at-build found {pgBuild}; peek found {pgPeek}; append found {pgAppend}; today's holds {pgNow}"
  let drReturn := (KgFormal.explore (KgFormal.DroppedReply.model 0)).isSome
  let drAny := (KgFormal.explore (KgFormal.DroppedReply.model 1)).isSome
  let drNow := (KgFormal.explore (KgFormal.DroppedReply.model 2)).isNone
  IO.println s!"dropped_reply: at-return found {drReturn}; reoffer-any found {drAny}; today's holds {drNow}"
  return if drReturn && drAny && drNow && pgBuild && pgPeek && pgAppend && pgNow && cdGuard && cdRecheck && cdStamp && cdSilent && cdNow && shOld && shNow && rnOld && rnNow && old && now && faOld && faNow && pdOld && pdWin && pdNow && sbShare && sbSteal && sbNow then 0 else 1
