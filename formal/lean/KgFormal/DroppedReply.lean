/-
Dropped replies: a kg_read part the tool call returned, which the transport never got to the
client. The Lean twin of formal/models/dropped_reply.py: same states, steps, bounds (2 reads: 3
parts showing nodes 0, 1, 2, then 2 parts showing 2, 0; 3 `more` calls; 2 calls in flight; any
reply written or dropped) and invariants (no part lost; seen only if delivered; once; replaced).
Steps model conduct.read.deliver (Registry.set_pages under a new generation; the first part is the
reply), conduct.read.more (Registry.next_page), and http.app.App._mcp's send: written
(Effects.delivered: the part's nodes marked seen) or the client gone (Effects.abandoned:
ReofferPage, back in front when its generation is still the session's).
Designs: 0 = effects at return, a dropped part gone; 1 = a dropped part handed back whatever read
is newest; 2 = today's (handed back under its generation only).
Calls: kind true = a read, false = a more; part none = not yet at the registry.
-/
import KgFormal.Explore

namespace KgFormal.DroppedReply

def READS : List (List (List Nat)) := [[[0], [1], [2]], [[2], [0]]]

def shows (p : Nat × Nat) : List Nat := (READS.getD p.1 []).getD p.2 []

structure Call where
  read : Bool
  r : Nat := 0
  part : Option (Nat × Nat) := none
  empty : Bool := false
  deriving BEq, Hashable, Repr

structure S where
  reads : Nat := 0
  mores : Nat := 0
  calls : List Call := []
  pending : List (Nat × Nat) := []
  latest : Option Nat := none
  seen : List Nat := []
  written : List (Nat × Nat) := []
  deriving BEq, Hashable, Repr

def mark (s : S) (p : Nat × Nat) : S := { s with seen := (s.seen ++ shows p).eraseDups }

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
      let mine : List (String × S) :=
        match c.part with
        | none =>
          if c.empty then [("more: NOTHING_PENDING written", { s with calls := rest })]
          else if c.read then
            let n := (READS.getD c.r []).length
            let parts := (List.range (n - 1)).map fun k => (c.r, k + 1)
            let p := (c.r, 0)
            let nxt := { s with calls := s.calls.set i { c with part := some p }, latest := some c.r,
                                pending := parts }
            [("SetPages, returns part 1", if design == 0 then mark nxt p else nxt)]
          else
            (match s.pending with
             | [] => [("more: nothing pending", { s with calls := s.calls.set i { c with empty := true } })]
             | p :: tail =>
               let nxt := { s with calls := s.calls.set i { c with part := some p }, pending := tail }
               [("NextPage returns a part", if design == 0 then mark nxt p else nxt)])
        | some p =>
          let done := { s with calls := rest }
          let written := { done with written := s.written ++ [p] }
          let wrote := ("written", if design == 0 then written else mark written p)
          let dropped :=
            if design == 0 then ("dropped", done)
            else if design == 1 || some p.1 == s.latest then ("dropped, handed back", { done with pending := p :: s.pending })
            else ("dropped, its read replaced", done)
          [wrote, dropped]
      mine ++ acc) []
  start ++ per

def noPartLost (s : S) : Bool :=
  match s.latest with
  | none => true
  | some r =>
    let n := (READS.getD r []).length
    (List.range n).all fun k =>
      s.written.contains (r, k) || s.pending.contains (r, k) || s.calls.any (fun c => c.part == some (r, k))

def invariant (s : S) : Bool :=
  noPartLost s &&
    (s.seen.all fun n => s.written.any fun p => (shows p).contains n) &&
    s.written.eraseDups.length == s.written.length &&
    s.pending.all (fun p => some p.1 == s.latest)

def model (design : Nat) : Model S := { initial := {}, steps := steps design, invariant }

#eval (explore (model 0)).isSome   -- expected: true (effects at return: seen before written, a dropped part lost)
#eval (explore (model 1)).isSome   -- expected: true (handed back under any read: an old part in front of the new)
#eval (explore (model 2)).isNone   -- expected: true (today's)

end KgFormal.DroppedReply
