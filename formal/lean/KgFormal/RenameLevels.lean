/-
A rename never re-points an edge across levels (F5). The Lean twin of
formal/models/rename_levels.py: every configuration within the bounds (ids a b c; user ⊆ {a, b},
project ⊆ {a, b, c}; up to 2 project edges to ids that resolve), then one rename at either level.
Steps model Memory.rename (its capture refusals), GraphState.rename_local and GraphState.rewire.
Ids are 0 1 2; a node's identity is (level, original id): user = id, project = 10 + id.
-/
import KgFormal.Explore

namespace KgFormal.RenameLevels

structure S where
  user : List (Nat × Nat) := []      -- (id, identity)
  project : List (Nat × Nat) := []
  edges : List (Nat × Nat) := []     -- (source identity, bare target id)
  phase : Nat := 0                   -- 0 empty, 1 configured, 2 renamed or refused
  moved : Bool := false
  deriving BEq, Hashable, Repr

def resolve (s : S) (bare : Nat) : Option Nat :=
  match s.project.find? (·.1 == bare) with
  | some (_, i) => some i
  | none => (s.user.find? (·.1 == bare)).map (·.2)

def subsets : List Nat → List (List Nat)
  | [] => [[]]
  | x :: xs => let r := subsets xs; r ++ r.map (x :: ·)

def configs : List S :=
  (subsets [0, 1]).foldr (fun user acc =>
    (subsets [0, 1, 2]).foldr (fun project acc =>
      if project.isEmpty then acc else
      let ends := project.foldr (fun p a => ([0, 1, 2].filter (fun d => project.contains d || user.contains d)).map
                    (fun d => (10 + p, d)) ++ a) []
      let edgeSets := [[]] ++ ends.map (fun e => [e]) ++
        (List.range ends.length).foldr (fun i a => (List.range ends.length).foldr (fun j b =>
          if i < j then [ends.getD i (0, 0), ends.getD j (0, 0)] :: b else b) a) []
      edgeSets.map (fun es => { user := user.map (fun i => (i, i)), project := project.map (fun i => (i, 10 + i)),
                                edges := es, phase := 1 }) ++ acc) acc) []

def rename (checked : Bool) (s : S) (userLevel : Bool) (old new : Nat) : Option S :=
  let own := if userLevel then s.user else s.project
  if !(own.any (·.1 == old)) || own.any (·.1 == new) then none else
  let reaches (b : Nat) := s.edges.any (·.2 == b)
  let pOwns (b : Nat) := s.project.any (·.1 == b)
  let uOwns (b : Nat) := s.user.any (·.1 == b)
  if checked && userLevel && reaches old && !pOwns old && pOwns new then some { s with phase := 2 } else
  if checked && !userLevel && uOwns new && reaches new then some { s with phase := 2 } else
  let before := s.edges.map fun e => resolve s e.2
  let ren (l : List (Nat × Nat)) := l.map fun (i, k) => (if i == old then new else i, k)
  let t := if userLevel then
      { s with user := ren s.user,
               edges := s.edges.map fun (src, d) => (src, if d == old && !pOwns old then new else d) }
    else { s with project := ren s.project, edges := s.edges.map fun (src, d) => (src, if d == old then new else d) }
  some { t with phase := 2, moved := before != t.edges.map fun e => resolve t e.2 }

def steps (checked : Bool) (s : S) : List (String × S) :=
  if s.phase == 0 then configs.map fun c => ("config", c) else
  if s.phase == 1 then
    [true, false].foldr (fun lvl acc => [0, 1, 2].foldr (fun o acc => [0, 1, 2].foldr (fun n acc =>
      if o == n then acc else match rename checked s lvl o n with
        | some t => (s!"rename {if lvl then "user" else "project"} {o}->{n}", t) :: acc
        | none => acc) acc) acc) []
  else []

def model (checked : Bool) : Model S := { initial := {}, steps := steps checked, invariant := fun s => !s.moved }

#eval (explore (model false)).isSome   -- expected: true (no capture checks)
#eval (explore (model true)).isNone    -- expected: true (today's)

end KgFormal.RenameLevels
