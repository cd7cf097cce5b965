/-
The shim sends a request again only when its connection was refused, across server restarts.
The Lean twin of formal/models/shim_retry.py: same states, steps, bounds (2 writes, 2 crashes,
1 start per request) and invariants. Steps model shim.Shim.handle, Shim.ensure_server and the
server applying a write (Memory.put_node) or crashing before or after it.
Phases: 0 new, 1 at the server, 2 applied, 3 answered ok, 4 answered with an error.
-/
import KgFormal.Explore

namespace KgFormal.ShimRetry

structure S where
  up : Bool := false
  crashes : Nat := 0
  phase : List Nat := [0, 0]
  retried : List Bool := [false, false]
  applied : List Nat := [0, 0]
  deriving BEq, Hashable, Repr

def steps (retryAny : Bool) (s : S) : List (String × S) :=
  let per := (List.range 2).foldr (fun i acc =>
    let p := s.phase.getD i 0
    let r := s.retried.getD i false
    let set (ph : Nat) := { s with phase := s.phase.set i ph }
    let mine :=
      if p == 0 then
        if s.up then [("POST reaches the server", set 1)]
        else if !r then [("refused: kg start, send again", { s with up := true, retried := s.retried.set i true })]
        else [("refused again: error", set 4)]
      else if p == 1 && s.up then [("applied", { set 2 with applied := s.applied.set i (s.applied.getD i 0 + 1) })]
      else if p == 2 && s.up then [("reply out", set 3)]
      else if (p == 1 || p == 2) && !s.up then
        if retryAny && !r then [("dropped: send again", { s with up := true, phase := s.phase.set i 0,
                                                                 retried := s.retried.set i true })]
        else [("dropped: error", set 4)]
      else []
    mine ++ acc) []
  let crash := if s.up && s.crashes < 2 then [("server crashes", { s with up := false, crashes := s.crashes + 1 })] else []
  per ++ crash

def invariant (s : S) : Bool :=
  s.applied.all (· ≤ 1) &&
    (List.range 2).all fun i => s.phase.getD i 0 != 3 || s.applied.getD i 0 == 1

def model (retryAny : Bool) : Model S := { initial := {}, steps := steps retryAny, invariant }

#eval (explore (model true)).isSome    -- expected: true (resending a dropped request)
#eval (explore (model false)).isNone   -- expected: true (today's)

end KgFormal.ShimRetry
