/-
Paging: a kg_read reply in parts, each part's effects applied on its delivery. The Lean twin of
formal/models/paging.py: same states, steps, bounds (2 reads: 3 parts showing nodes 0, 1, 2, then
2 parts showing 2, 0; 3 `more` calls; 2 calls in flight) and invariants (seen only if delivered;
once; replaced). Steps model conduct.read.read/deliver (Registry.set_pages, then apply_effects of
the first part) and conduct.read.more (Registry.next_page, then apply_effects). Designs: 0 = effects
applied at build, 1 = peek then pop after delivery, 2 = a new read's parts appended, 3 = today's.
Calls: kind true = a read, false = a more.
-/
import KgFormal.Explore

namespace KgFormal.Paging

def READS : List (List (List Nat)) := [[[0], [1], [2]], [[2], [0]]]

def shows (p : Nat × Nat) : List Nat := (READS.getD p.1 []).getD p.2 []

structure Call where
  read : Bool
  r : Nat := 0
  phase : Nat := 0
  part : Option (Nat × Nat) := none
  deriving BEq, Hashable, Repr

structure S where
  reads : Nat := 0
  mores : Nat := 0
  calls : List Call := []
  pending : List (Nat × Nat) := []
  latest : Option Nat := none
  seen : List Nat := []
  delivered : List (Nat × Nat) := []
  stale : Bool := false
  deriving BEq, Hashable, Repr

def deliver (design : Nat) (s : S) (p : Nat × Nat) : S :=
  let s := if design == 0 then s else { s with seen := (s.seen ++ shows p).eraseDups }
  { s with delivered := s.delivered ++ [p] }

def steps (design : Nat) (s : S) : List (String × S) :=
  let start := if s.calls.length < 2 then
      (if s.reads < 2 then [("kg_read renders", { s with reads := s.reads + 1,
                                                         calls := s.calls ++ [{ read := true, r := s.reads }] })]
       else []) ++
      (if s.mores < 3 then [("kg_read more", { s with mores := s.mores + 1, calls := s.calls ++ [{ read := false }] })]
       else [])
    else []
  let per := (List.range s.calls.length).foldr (fun i acc =>
    match s.calls[i]? with
    | none => acc
    | some c =>
      let rest := s.calls.eraseIdx i
      let mine :=
        if c.read && c.phase == 0 then
          let n := (READS.getD c.r []).length
          let parts := (List.range (n - 1)).map fun k => (c.r, k + 1)
          let nxt := { s with calls := s.calls.set i { c with phase := 1 }, latest := some c.r,
                              pending := if design == 2 then s.pending ++ parts else parts }
          let nxt := if design == 0 then { nxt with seen := (s.seen ++ (READS.getD c.r []).foldl (· ++ ·) []).eraseDups }
                     else nxt
          [("SetPages", nxt)]
        else if c.read then [("part 1 delivered", deliver design { s with calls := rest } (c.r, 0))]
        else if c.phase == 0 then
          match s.pending with
          | [] => [("more: nothing pending", { s with calls := rest })]
          | p :: tail =>
            [("NextPage", { s with calls := s.calls.set i { c with phase := 1, part := some p },
                                   pending := if design == 1 then s.pending else tail,
                                   stale := s.stale || some p.1 != s.latest })]
        else match c.part with
          | none => []
          | some p =>
            let nxt := { s with calls := rest }
            let nxt := if design == 1 then { nxt with pending := nxt.pending.drop 1 } else nxt
            [("more delivered", deliver design nxt p)]
      mine ++ acc) []
  start ++ per

def invariant (s : S) : Bool :=
  (s.seen.all fun n => s.delivered.any fun p => (shows p).contains n) &&
    s.delivered.eraseDups.length == s.delivered.length && !s.stale

def model (design : Nat) : Model S := { initial := {}, steps := steps design, invariant }

#eval (explore (model 0)).isSome   -- expected: true (effects at build: seen before delivery)
#eval (explore (model 1)).isSome   -- expected: true (peek then pop: a part delivered twice)
#eval (explore (model 2)).isSome   -- expected: true (appended: a more returns the older read's part)
#eval (explore (model 3)).isNone   -- expected: true (today's)

end KgFormal.Paging
