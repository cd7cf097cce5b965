/-
A write is acknowledged only when durable, across a disk that fails and recovers, and a crash.
The Lean twin of formal/models/failed_append.py: same states, steps, bounds (2 nodes, 3 writes,
1 fold, 2 disk changes, one crash) and invariants. Steps model graph_actor._apply,
graph_actor._resync, graph_actor._request_fold, graph_writer.run_writer (_flush, _fold, Resync)
and graph_actor.load_graph after the crash.
-/
import KgFormal.Explore

namespace KgFormal.FailedAppend

abbrev Values := List Nat

inductive Item where
  | write (node w : Nat) | fold (snap : Values) | resync
  deriving BEq, Hashable, Repr

structure S where
  memory : Values := [0, 0]
  queue : List Item := []
  json : Values := [0, 0]
  journal : List (Nat × Nat) := []
  diskOk : Bool := true
  diskChanges : Nat := 0
  refusing : Bool := false
  journalFailed : Bool := false
  acked : List (Nat × Nat) := []
  refused : List (Nat × Nat) := []
  issued : Nat := 0
  folds : Nat := 0
  crashed : Option Values := none
  deriving BEq, Hashable, Repr

def load (s : S) : Values := s.journal.foldl (fun v (n, w) => v.set n w) s.json

def writer (refuse : Bool) (s : S) : List (String × S) :=
  match s.queue with
  | [] => []
  | .resync :: rest => [("writer: resync", { s with queue := rest, refusing := false })]
  | .write n w :: rest =>
    if s.refusing then [("writer: refuse", { s with queue := rest, refused := (n, w) :: s.refused })]
    else if s.diskOk then
      [("append+fsync, ack", { s with queue := rest, journal := s.journal ++ [(n, w)], acked := (n, w) :: s.acked })]
    else if refuse then
      [("append fails: refused", { s with queue := rest, refusing := true, journalFailed := true,
                                          refused := (n, w) :: s.refused })]
    else [("append fails: acked anyway", { s with queue := rest, acked := (n, w) :: s.acked })]
  | .fold snap :: rest =>
    if s.refusing then [("fold skipped", { s with queue := rest })]
    else if s.diskOk then [("fold saved", { s with queue := rest, json := snap, journal := [] })]
    else [("fold fails", { s with queue := rest })]

def steps (refuse : Bool) (s : S) : List (String × S) :=
  if s.crashed.isSome then [] else
  let actor :=
    if s.journalFailed && refuse then
      [("actor: resync from disk", { s with memory := load s, queue := s.queue ++ [.resync], journalFailed := false })]
    else
      let ws := if s.issued < 3 then (List.range 2).map fun n =>
          let w := s.issued + 1
          (s!"write n{n}={w}", { s with memory := s.memory.set n w, queue := s.queue ++ [.write n w], issued := w })
        else []
      let fs := if s.folds < 1 then [("fold requested", { s with queue := s.queue ++ [.fold s.memory],
                                                               folds := s.folds + 1 })] else []
      ws ++ fs
  let disk := if s.diskChanges < 2 then
      [(if s.diskOk then "disk fails" else "disk recovers", { s with diskOk := !s.diskOk, diskChanges := s.diskChanges + 1 })]
    else []
  actor ++ writer refuse s ++ disk ++ [("crash", { s with crashed := some (load s) })]

def acknowledged (s : S) : Bool :=
  match s.crashed with
  | some v => s.acked.all fun (n, w) => v.getD n 0 ≥ w
  | none => true

def refusedGone (s : S) : Bool :=
  let onDisk (p : Nat × Nat) := s.journal.contains p || s.json.getD p.1 0 == p.2
  !(s.refused.any onDisk) &&
    (s.journalFailed || s.crashed.isSome || !(s.refused.any fun (n, w) => s.memory.getD n 0 == w))

def quiescent (s : S) : Bool := s.crashed.isSome || !s.queue.isEmpty || s.journalFailed || s.memory == load s

def model (refuse : Bool) : Model S :=
  { initial := {}, steps := steps refuse, invariant := fun s => acknowledged s && refusedGone s && quiescent s }

#eval (explore (model false)).isSome   -- expected: true (the design we left)
#eval (explore (model true)).isNone    -- expected: true (today's)

end KgFormal.FailedAppend
