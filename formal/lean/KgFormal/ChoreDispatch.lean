/-
Chore dispatch under racing prompts. The Lean twin of formal/models/chore_dispatch.py: same
states, steps, bounds (2 sessions with 2 prompts each, the clock 0..5, a day of 3 ticks, spacing 2,
2 runs a day, 2 config and 2 gauge changes) and invariants (one job; re-checked; spacing; daily cap;
slot freed). Steps model trigger.after_prompt (ChoreHandle.prompted), run_chore_supervisor's
burst loop (prompts collapse to the newest; a JobDone first has the pending prompt decided),
Supervisor.on_prompt as "decide" then "spawn" (rules.recheck, save_state), Supervisor.job
(finishes or crashes, then JobDone) and on_job_done. Designs: 0 = no `running` guard,
1 = no re-check, 2 = stamped at the decision (the code before the model), 3 = today's,
4 = a crash that sends no JobDone.
Inbox messages: true = a prompt, false = JobDone.
-/
import KgFormal.Explore

namespace KgFormal.ChoreDispatch

def T : Nat := 5
def DAY : Nat := 3
def SPACING : Nat := 2
def CAP : Nat := 2

structure S where
  t : Nat := 0
  sent : List Nat := [0, 0]
  inbox : List Bool := []
  pending : Bool := false
  deciding : Option (Nat × Nat) := none
  running : Bool := false
  jobs : Nat := 0
  cfgOn : Bool := true
  cfgChanges : Nat := 0
  fresh : Bool := true
  gaugeChanges : Nat := 0
  lastTs : Option Nat := none
  day : Int := -1
  count : Nat := 0
  spawns : List Nat := []
  badSpawn : Bool := false
  deriving BEq, Hashable, Repr

def decideStep (design : Nat) (s : S) : List (String × S) :=
  let day := s.t / DAY
  let count := if s.day == (day : Int) then s.count else 0
  let tooSoon := match s.lastTs with | some l => s.t - l < SPACING | none => false
  if !s.cfgOn then [("decide: off", s)]
  else if design != 0 && s.running then [("decide: a run is in flight", s)]
  else if tooSoon then [("decide: spacing", s)]
  else if count ≥ CAP then [("decide: daily cap", s)]
  else if !s.fresh then [("decide: gauge stale", s)]
  else [("decide: dispatch", { s with deciding := some (s.t, day) })]

def spawnStep (design : Nat) (s : S) (tDec day : Nat) : List (String × S) :=
  let idle := { s with deciding := none }
  let recheck := design != 1
  if recheck && (!s.cfgOn || !s.fresh) then [("re-check refuses", idle)]
  else if design != 1 && design != 2 && s.t / DAY != day then [("re-check refuses: the day turned", idle)]
  else
    let count := (if s.day == (day : Int) then s.count else 0) + 1
    [("spawn", { idle with lastTs := some (if design == 2 then tDec else s.t), day := (day : Int), count,
                           running := true, jobs := s.jobs + 1, spawns := s.spawns ++ [s.t],
                           badSpawn := s.badSpawn || !s.cfgOn || !s.fresh })]

def steps (design : Nat) (s : S) : List (String × S) :=
  let prompts := (List.range 2).filterMap fun i =>
    if s.sent.getD i 0 < 2 then
      some ("session prompts", { s with sent := s.sent.set i (s.sent.getD i 0 + 1), inbox := s.inbox ++ [true] })
    else none
  let clock := if s.t < T then [("clock", { s with t := s.t + 1 })] else []
  let cfg := if s.cfgChanges < 2 then [("chores.json toggled", { s with cfgOn := !s.cfgOn,
                                                                       cfgChanges := s.cfgChanges + 1 })] else []
  let gauge := if s.gaugeChanges < 2 then [("gauge toggled", { s with fresh := !s.fresh,
                                                                   gaugeChanges := s.gaugeChanges + 1 })] else []
  -- a crash is the same step: Supervisor.job catches it and still sends JobDone
  let job := if s.jobs > 0 then [("job ends", { s with jobs := s.jobs - 1, inbox := s.inbox ++ [false] })] else []
  let job := if design == 4 && s.jobs > 0 then job ++ [("job crashes silently", { s with jobs := s.jobs - 1 })] else job
  let world := prompts ++ clock ++ cfg ++ gauge ++ job
  match s.deciding with
  | some (tDec, day) => world ++ spawnStep design s tDec day  -- on_prompt holds the actor until it returns
  | none =>
    let take := match s.inbox with
      | true :: rest => [("supervisor takes a prompt", { s with inbox := rest, pending := true })]
      | false :: rest => if s.pending then [] else [("JobDone frees the slot", { s with inbox := rest, running := false })]
      | [] => []
    let dec := if s.pending then decideStep design { s with pending := false } else []
    world ++ take ++ dec

def spaced (l : List Nat) : Bool := (l.zip l.tail).all fun (a, b) => b ≥ a && b - a ≥ SPACING

def invariant (s : S) : Bool :=
  s.jobs ≤ 1 && !s.badSpawn && spaced s.spawns &&
    ((List.range (T / DAY + 1)).all fun d => (s.spawns.filter (· / DAY == d)).length ≤ CAP) &&
    (s.jobs > 0 || !s.inbox.isEmpty || s.pending || s.deciding.isSome || !s.running)

def model (design : Nat) : Model S := { initial := {}, steps := steps design, invariant }

#eval (explore (model 0)).isSome   -- expected: true (no running guard: two jobs)
#eval (explore (model 1)).isSome   -- expected: true (no re-check: a spawn with chores off)
#eval (explore (model 2)).isSome   -- expected: true (stamped at the decision: spacing broken)
#eval (explore (model 4)).isSome   -- expected: true (a silent crash: the slot stays taken)
#eval (explore (model 3)).isNone   -- expected: true (today's)

end KgFormal.ChoreDispatch
