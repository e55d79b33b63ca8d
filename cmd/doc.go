// Package cmd is tiform's command line: wiring only. It parses flags, loads the
// configuration (schema), inspects clusters (live), plans (planner), and renders
// (render) or applies (applier). Logic belongs in those packages, not here.
package cmd
