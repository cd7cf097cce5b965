/-
Push-once delivery with replies clients give up on (F38). The Lean twin of
formal/models/push_delivery.py: same states, steps, bounds (2 nodes, 3 writes, 4 hook replies,
2 in flight) and invariants. Steps model another session's kg_put_node, Registry._claim_push,
Memory.push_notice, and rest_hooks._delivered (MarkSeen once sent; ReofferPush when the client
hung up). Designs: 0 = marked at build (the design we left), 1 = the abandoned window handed
back (duplicates a write in flight), 2 = the abandoned items handed back (today's).
-/
import KgFormal.Explore

namespace KgFormal.PushDelivery

structure Reply where
  since : Nat
  shown : List (Nat × Nat)
  deriving BEq, Hashable, Repr

structure S where
  t : Nat := 0
  stamps : List Nat := [0, 0]
  writes : Nat := 0
  pushed : Nat := 0
  reoffer : Option Nat := none
  again : List (Nat × Nat) := []
  marked : List Nat := [0, 0]
  flight : List Reply := []
  hooks : Nat := 0
  delivered : List (Nat × Nat) := []
  twice : Bool := false
  deriving BEq, Hashable, Repr

def mark (m : List Nat) (shown : List (Nat × Nat)) : List Nat :=
  shown.foldl (fun m (n, st) => m.set n (max (m.getD n 0) st)) m

def windowStart (s : S) : Nat := match s.reoffer with | some r => min r s.pushed | none => s.pushed

def steps (design : Nat) (s : S) : List (String × S) :=
  let ws := if s.writes < 3 then (List.range 2).map fun n =>
      (s!"write n{n}", { s with t := s.t + 1, stamps := s.stamps.set n (s.t + 1), writes := s.writes + 1 })
    else []
  let claim := if s.hooks < 4 && s.flight.length < 2 then
      let since := windowStart s
      let fresh := ((List.range 2).filterMap fun n => let st := s.stamps.getD n 0
                      if since < st then some (n, st) else none)
                   ++ s.again.filter fun (n, st) => s.stamps.getD n 0 == st
      let shown := (fresh.eraseDups).filter fun (n, st) => s.marked.getD n 0 < st
      let nxt := { s with t := s.t + 1, pushed := s.t + 1, reoffer := none, again := [], hooks := s.hooks + 1,
                          flight := s.flight ++ [{ since, shown }] }
      [("hook claims", if design == 0 then { nxt with marked := mark s.marked shown } else nxt)]
    else []
  let ends := (List.range s.flight.length).foldr (fun i acc =>
      match s.flight[i]? with
      | none => acc
      | some r =>
        let rest := s.flight.eraseIdx i
        let sent := { s with flight := rest, delivered := s.delivered ++ r.shown,
                             twice := s.twice || r.shown.any s.delivered.contains }
        let sent := if design == 0 then sent else { sent with marked := mark s.marked r.shown }
        let gone := { s with flight := rest }
        let gone := if design == 1 && !r.shown.isEmpty then
            { gone with reoffer := some (match s.reoffer with | some x => min x r.since | none => r.since) }
          else if design == 2 then { gone with again := s.again ++ r.shown } else gone
        ("reply sent", sent) :: ("client hung up", gone) :: acc) []
  ws ++ claim ends

def markedDelivered (s : S) : Bool :=
  (List.range 2).all fun n => let st := s.marked.getD n 0
    st == 0 || s.delivered.any fun (m, x) => m == n && x ≥ st

def noLoss (s : S) : Bool :=
  (List.range 2).all fun n =>
    let st := s.stamps.getD n 0
    st == 0 || s.delivered.contains (n, st) || s.flight.any (fun r => r.shown.contains (n, st)) ||
      ((windowStart s < st || s.again.contains (n, st)) && s.marked.getD n 0 < st)

def model (design : Nat) : Model S :=
  { initial := {}, steps := steps design, invariant := fun s => markedDelivered s && noLoss s && !s.twice }

#eval (explore (model 0)).isSome   -- expected: true (marked at build)
#eval (explore (model 1)).isSome   -- expected: true (a window handed back duplicates a write)
#eval (explore (model 2)).isNone   -- expected: true (today's)

end KgFormal.PushDelivery
