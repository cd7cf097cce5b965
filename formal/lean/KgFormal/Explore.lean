/-
A bounded breadth-first explorer: the Lean twin of formal/explore.py.
Visits every state reachable within `fuel` states and returns the first state
(with its trace) that breaks the invariant.
-/
namespace KgFormal

structure Model (σ : Type) where
  initial : σ
  steps : σ → List (String × σ)
  invariant : σ → Bool

partial def explore {σ : Type} [BEq σ] [Hashable σ] (m : Model σ) (fuel : Nat := 1000000) :
    Option (List String × σ) :=
  let rec go (queue : List (σ × List String)) (next : List (σ × List String))
      (seen : Std.HashSet σ) (left : Nat) : Option (List String × σ) :=
    match queue with
    | [] => if next.isEmpty || left == 0 then none else go next.reverse [] seen left
    | (s, trace) :: rest =>
      if !m.invariant s then some (trace.reverse, s)
      else
        let (next', seen', left') := (m.steps s).foldl
          (fun (acc : List (σ × List String) × Std.HashSet σ × Nat) (step : String × σ) =>
            let (n, sn, l) := acc
            if sn.contains step.2 || l == 0 then acc
            else ((step.2, step.1 :: trace) :: n, sn.insert step.2, l - 1))
          (next, seen, left)
        go rest next' seen' left'
  go [(m.initial, [])] [] (Std.HashSet.empty.insert m.initial) fuel

end KgFormal
