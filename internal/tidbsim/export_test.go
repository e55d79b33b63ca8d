package tidbsim

// HandModelledVariables names the system variables whose definition is
// hand-modelled (sysVarDefs) rather than read from the generated upstream
// table: the differential suite tells a difference the table causes from
// one the emulator's own model causes.
func HandModelledVariables() map[string]bool {
	out := map[string]bool{}
	for _, d := range sysVarDefs {
		out[d.Name] = true
	}
	return out
}
