/-
Which KG session a harness session acts for, across resume, fork, clear, compaction and kg_read
(F8, F12). The Lean twin of formal/models/session_binding.py: same states, steps, bounds
(3 harness sessions, the third forked by the harness; 5 events; 3 KG sessions) and invariants.
Steps model Ambient.bootstrap (Registry.register, Registry.fork, Registry.reset_context),
Ambient.resolve (Registry.bind) and Memory.open_session. Designs: 0 = the fork shares the parent
("share"), 1 = a hook binds a bound candidate ("steal"), 2 = today's.
-/
import KgFormal.Explore

namespace KgFormal.SessionBinding

structure S where
  bound : List (Option Nat) := []
  transcript : List (Option Nat) := [none, none, none]
  alive : List Bool := [true, true, false]
  acting : List (Option Nat) := [none, none, none]
  events : Nat := 0
  deriving BEq, Hashable, Repr

def find (s : S) (h : Nat) : Option Nat :=
  (List.range s.bound.length).foldl (fun acc i => if s.bound.getD i none == some h then some i else acc) none

def newSession (s : S) (h : Option Nat) : Option (S × Nat) :=
  if s.bound.length ≥ 3 then none else some ({ s with bound := s.bound ++ [h] }, s.bound.length)

def shown (s : S) (h i : Nat) : S := { s with transcript := s.transcript.set h (some i) }

def start (design : Nat) (s : S) (h : Nat) (source : String) : Option S :=
  let fresh := (newSession s (some h)).map fun (t, i) => shown t h i
  if source == "clear" then fresh else
  match find s h with
  | some i => some (shown s h i)
  | none =>
    if source == "compact" then some s else
    match s.transcript.getD h none with
    | some cand =>
      if design == 0 then some (shown { s with bound := s.bound.set cand (some h) } h cand) else fresh
    | none => fresh

def hook (design : Nat) (s : S) (h : Nat) : S :=
  let (s, i) := match find s h with
    | some i => (s, some i)
    | none => match s.transcript.getD h none with
      | some cand => if design == 1 || s.bound.getD cand none == none
          then ({ s with bound := s.bound.set cand (some h) }, some cand) else (s, none)
      | none => (s, none)
  { s with acting := s.acting.set h i }

def steps (design : Nat) (s : S) : List (String × S) :=
  if s.events ≥ 5 then [] else
  let t := { s with events := s.events + 1 }
  let per := (List.range 3).foldr (fun h acc =>
    if !(t.alive.getD h false) then acc else
    let starts := ["startup", "clear", "compact"].filterMap fun src =>
      (start design t h src).map fun n => (s!"h{h} start {src}", n)
    let opened := match newSession t none with
      | some (n, i) => [(s!"h{h} kg_read opens", shown n h i)]
      | none => []
    starts ++ [(s!"h{h} hook", hook design t h)] ++ opened ++ acc) []
  let forks := if t.alive.getD 2 false then [] else
    [0, 1].map fun p => (s!"harness forks h{p}", { t with alive := [true, true, true],
                                                           transcript := t.transcript.set 2 (t.transcript.getD p none) })
  per ++ forks

def own (s : S) : Bool :=
  (List.range 3).all fun h => match s.acting.getD h none with
    | some a => s.bound.getD a none == some h
    | none => true

def unshared (s : S) : Bool :=
  let acts := s.acting.filterMap id
  acts.length == acts.eraseDups.length

def model (design : Nat) : Model S :=
  { initial := {}, steps := steps design, invariant := fun s => own s && unshared s }

#eval (explore (model 0)).isSome   -- expected: true (the fork shares)
#eval (explore (model 1)).isSome   -- expected: true (a hook steals)
#eval (explore (model 2)).isNone   -- expected: true (today's)

end KgFormal.SessionBinding
