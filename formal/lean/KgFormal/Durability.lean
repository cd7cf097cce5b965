/-
Durability of a graph's journal and snapshot across a crash at any step.
The Lean twin of formal/models/durability.py: same states, steps, bounds
(2 nodes, 3 writes, 2 folds, one crash) and invariants. Steps model
graph_actor._apply, graph_actor._request_fold, the writer task
graph_actor._writer (_flush, _fold = files.write_atomic then journal.remove)
and the load after a crash, graph_actor.load_graph.
-/
import KgFormal.Explore

namespace KgFormal.Durability

abbrev Values := List Nat            -- node values; 0 = never written

inductive File where
  | none | torn | some (v : Values)
  deriving BEq, Hashable, Repr

inductive Rec where
  | torn | set (node write : Nat)
  deriving BEq, Hashable, Repr

inductive Item where
  | write (node write : Nat) | fold (snapshot : Values)
  deriving BEq, Hashable, Repr

inductive Outcome where
  | running | loaded (v : Values) | unloadable
  deriving BEq, Hashable, Repr

structure S where
  memory : Values := [0, 0]
  queue : List Item := []
  pc : Nat := 0
  json : File := .none
  prev : File := .none
  tmp : File := .none
  journal : List Rec := []
  acked : List (Nat × Nat) := []
  issued : Nat := 0
  folds : Nat := 0
  crashed : Outcome := .running
  deriving BEq, Hashable, Repr

def nodes := 2
def writes := 3
def maxFolds := 2

def setAt (v : Values) (i x : Nat) : Values := v.set i x

def load (s : S) : Outcome :=
  let base := match s.json with
    | .some v => File.some v
    | .torn => s.prev
    | .none => s.prev
  match base with
  | .torn => .unloadable
  | b =>
    let start : Values := match b with | .some v => v | _ => List.replicate nodes 0
    .loaded (s.journal.foldl (fun v r => match r with | .set n w => setAt v n w | .torn => v) start)

def writerSteps (atomicPrev : Bool) (s : S) : List (String × S) :=
  match s.queue with
  | [] => []
  | .write n w :: rest =>
    [("append+fsync, ack", { s with queue := rest, journal := s.journal ++ [.set n w],
                                    acked := (n, w) :: s.acked })]
  | .fold snap :: rest =>
    match s.pc with
    | 0 => [("fold: temp written", { s with pc := 1, tmp := .some snap })]
    | 1 => [("fold: .prev kept", { s with pc := 2, prev := match s.json with | .none => s.prev | j => j })]
    | 2 => [("fold: temp renamed", { s with pc := 3, json := s.tmp, tmp := .none })]
    | _ => [("fold: journal removed", { s with pc := 0, queue := rest, journal := [] })]

def crashes (atomicPrev : Bool) (s : S) : List (String × S) :=
  let plain := [("crash", { s with crashed := load s })]
  let midAppend := match s.queue with
    | .write _ _ :: _ => let t := { s with journal := s.journal ++ [.torn] }
                         [("crash mid-append", { t with crashed := load t })]
    | _ => []
  let midCopy := match s.queue, s.pc, s.json with
    | .fold _ :: _, 1, .some _ => if atomicPrev then [] else
        let t := { s with prev := .torn }
        [("crash mid-copy to .prev", { t with crashed := load t })]
    | _, _, _ => []
  plain ++ midAppend ++ midCopy

def steps (atomicPrev : Bool) (s : S) : List (String × S) :=
  if s.crashed != .running then [] else
  let ws := if s.issued < writes then
      (List.range nodes).map fun n =>
        let w := s.issued + 1
        (s!"write n{n}={w}", { s with memory := setAt s.memory n w, queue := s.queue ++ [.write n w], issued := w })
    else []
  let fs := if s.folds < maxFolds then
      [("fold requested", { s with queue := s.queue ++ [.fold s.memory], folds := s.folds + 1 })] else []
  ws ++ fs ++ writerSteps atomicPrev s ++ crashes atomicPrev s

def acknowledgedSurvive (s : S) : Bool :=
  match s.crashed with
  | .loaded v => s.acked.all fun (n, w) => v.getD n 0 ≥ w
  | _ => true

def invariant (s : S) : Bool :=
  acknowledgedSurvive s && s.crashed != .unloadable &&
    (s.crashed == .running || (s.json != .torn && s.prev != .torn))

def model (atomicPrev : Bool) : Model S := { initial := {}, steps := steps atomicPrev, invariant }

-- The design we left breaks the torn-file rule; today's (atomic .prev) holds.
#eval (explore (model false)).isSome   -- expected: true
#eval (explore (model true)).isNone    -- expected: true

end KgFormal.Durability
