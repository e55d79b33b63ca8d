// Package examples holds runnable tiform configurations. Its tests (in this
// package) validate every example and run the quickstart against the emulator.
package examples
