import KgFormal

def main : IO UInt32 := do
  let old := (KgFormal.explore (KgFormal.Durability.model false)).isSome
  let now := (KgFormal.explore (KgFormal.Durability.model true)).isNone
  IO.println s!"durability: old design counterexample found {old}; today's design holds {now}"
  return if old && now then 0 else 1
