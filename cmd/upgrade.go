package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/tiform/tiform/importer"
	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/render"
	"github.com/tiform/tiform/rollout"
	"github.com/tiform/tiform/version"
)

// plan --target-version V: the upgrade-impact report. Each cluster is read
// once (its plan's request and the settings whose default changes:
// live.UpgradeRequest) and compared by planner.UpgradeImpact; the HCL that
// keeps today's values is importer.Pins of planner.Pins.

// checkUpgrade refuses, before any cluster is read, flags that do not go
// with --target-version, and parses it.
func (f *planFlags) checkUpgrade() (version.Version, error) {
	if f.targetVersion == "" {
		if f.pinsOut != "" {
			return version.Version{}, errors.New("plan: --pins-out writes the HCL of an upgrade-impact report: add --target-version V")
		}
		return version.Version{}, nil
	}
	switch {
	case f.drift:
		return version.Version{}, errors.New("plan: --target-version reports what an upgrade changes, --drift what drifted: run them one at a time")
	case f.out != "":
		return version.Version{}, errors.New("plan: --target-version reports what an upgrade changes, it is not a plan to apply: drop --out")
	}
	v, err := version.Parse(f.targetVersion)
	if err != nil || v.IsZero() {
		return version.Version{}, fmt.Errorf("plan: --target-version %q: write a TiDB version such as v8.5.6", f.targetVersion)
	}
	if f.pinsOut != "" {
		if _, err := os.Lstat(f.pinsOut); err == nil {
			return version.Version{}, fmt.Errorf("plan: --pins-out %s exists: tiform does not overwrite it (remove it, or name another file)", f.pinsOut)
		}
	}
	return v, nil
}

// runUpgrade reads every selected cluster and writes its upgrade impact to
// to. With --detailed-exitcode it exits 2 when a setting whose default
// changes is not pinned.
func runUpgrade(ctx context.Context, env *Env, f *planFlags, to version.Version) error {
	d, err := loadConfig(env, &f.configFlags, f.view.noColor)
	if err != nil {
		return err
	}
	if f.fromSnapshot != "" && len(d.Clusters) != 1 {
		return exitCode(ExitError, fmt.Errorf("--from-snapshot plans one cluster, and the configuration declares %d: choose one with --cluster NAME", len(d.Clusters)))
	}
	now := clock()
	out := make([]render.UpgradeCluster, len(d.Clusters))
	rollout.ForEach(f.parallelism, len(d.Clusters), func(i int) {
		dc := d.Clusters[i]
		out[i] = render.UpgradeCluster{Name: dc.Name}
		l, db, err := readRequest(ctx, &f.configFlags, dc, live.UpgradeRequest(live.RequestFor(dc), to))
		if db != nil {
			db.Close()
		}
		if err == nil && len(l.Gaps) > 0 && !f.allowPartial {
			err = &planner.IncompleteError{Cluster: dc.Name, Reasons: l.Incomplete()}
		}
		if err != nil {
			out[i].Failure = failureOf(err, d.Sources)
			return
		}
		out[i].Impact = planner.UpgradeImpact(dc, l, to, now)
	})
	var impacts []*planner.Upgrade
	var failed []render.ClusterLine
	for _, c := range out {
		if c.Impact != nil {
			impacts = append(impacts, c.Impact)
		} else {
			failed = append(failed, render.ClusterLine{Name: c.Name, Status: c.Failure.Status})
		}
	}
	pins, skipped := planner.Pins(impacts)
	var hcl []byte
	if len(pins) > 0 {
		ps := make([]importer.Pin, len(pins))
		for i, p := range pins {
			ps[i] = importer.Pin{Addr: p.Addr, Text: p.Text}
		}
		var more []string
		hcl, more, err = importer.Pins(ps, pinsHeader(to, now)...)
		if err != nil {
			return exitCode(ExitError, err)
		}
		skipped = append(skipped, more...)
	}
	doc := render.UpgradeReport(to, out, string(hcl), skipped)
	switch f.view.format {
	case "json":
		err = render.UpgradeJSON(env.Stdout, doc)
	case "markdown":
		err = render.UpgradeMarkdown(env.Stdout, doc)
	default:
		err = render.UpgradeText(env.Stdout, doc, f.view.verbose, useColor(env.Stdout, f.view.noColor))
	}
	if err != nil {
		return exitCode(ExitError, err)
	}
	if f.pinsOut != "" && len(hcl) > 0 {
		if err := files.WriteBytes(f.pinsOut, hcl, files.Private); err != nil {
			return exitCode(ExitError, fmt.Errorf("plan: --pins-out: %w", err))
		}
		if f.view.format == "text" {
			fmt.Fprintf(env.Stdout, "\nWrote the HCL above to %s: review it, then keep it in the configuration.\n", f.pinsOut)
		}
	}
	if err := fleetFailure("compared", failed); err != nil {
		return exitCode(ExitError, err)
	}
	if f.detailedExit && doc.Unpinned > 0 {
		return exitCode(ExitChanges, nil)
	}
	return nil
}

// pinsHeader is the comment atop the pins.
func pinsHeader(to version.Version, now time.Time) []string {
	return []string{
		fmt.Sprintf("Today's values of the settings whose default changes by %s, pinned so that the upgrade keeps them", to.Short()),
		fmt.Sprintf("(tiform plan --target-version %s, %s). Review each: a new default may be the better choice.", to.Short(), now.UTC().Format("2006-01-02")),
	}
}
