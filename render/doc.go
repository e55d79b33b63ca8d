// Package render turns a plan (and diagnostics) into views: text, JSON
// (versioned DTOs, never internal types marshalled directly) and Markdown.
// All three are rendered from the same planner.Plan, so they cannot disagree.
package render
