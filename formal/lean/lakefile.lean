import Lake
open Lake DSL

package kg_formal

@[default_target]
lean_lib KgFormal

lean_exe check where
  root := `Main
