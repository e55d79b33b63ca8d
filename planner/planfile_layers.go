package planner

import (
	"fmt"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views"
)

// fileLayersDTO is ClusterPlan.Layers in a plan file (UI only: a saved
// plan shows the persisted layer as the plan did; apply never reads it).
type fileLayersDTO struct {
	Tool     string                `json:"tool,omitempty"`
	Files    []string              `json:"files,omitempty"`
	Cluster  string                `json:"cluster,omitempty"`
	Settings []fileLayerSettingDTO `json:"settings"`
}

type fileLayerValueDTO struct {
	Where   string `json:"where"`
	Value   string `json:"value,omitempty"`
	Present bool   `json:"present,omitempty"`
}

type fileLayerSettingDTO struct {
	Address   string              `json:"address"`
	Status    string              `json:"status"`
	Desired   string              `json:"desired"`
	Running   []fileValueDTO      `json:"running,omitempty"`
	Persisted []fileLayerValueDTO `json:"persisted,omitempty"`
	Planned   bool                `json:"planned,omitempty"`
	Reason    string              `json:"reason,omitempty"`
	Fix       string              `json:"fix,omitempty"`
	Sensitive bool                `json:"sensitive,omitempty"`
	Range     *views.Range        `json:"range,omitempty"`
}

func layersToFile(l *Layers) *fileLayersDTO {
	if l == nil {
		return nil
	}
	out := &fileLayersDTO{Tool: string(l.Tool), Files: l.Files, Cluster: l.Cluster, Settings: []fileLayerSettingDTO{}}
	for _, s := range l.Settings {
		d := fileLayerSettingDTO{Address: s.Addr.String(), Status: string(s.Status), Desired: s.Desired,
			Planned: s.Planned, Reason: s.Reason, Fix: s.Fix, Sensitive: s.Sensitive, Range: views.NewRange(s.Range)}
		for _, r := range s.Running {
			d.Running = append(d.Running, fileValueDTO(r))
		}
		for _, p := range s.Persisted {
			d.Persisted = append(d.Persisted, fileLayerValueDTO(p))
		}
		out.Settings = append(out.Settings, d)
	}
	return out
}

func layersFromFile(d *fileLayersDTO) (*Layers, error) {
	if d == nil {
		return nil, nil
	}
	out := &Layers{Tool: state.PersistTool(d.Tool), Files: d.Files, Cluster: d.Cluster}
	for _, s := range d.Settings {
		a, err := settingAddress(s.Address)
		if err != nil {
			return nil, fmt.Errorf("persisted layer: %w", err)
		}
		switch st := LayerStatus(s.Status); st {
		case LayerInStep, LayerReverted, LayerNotPersisted, LayerPDEtcd:
		default:
			return nil, fmt.Errorf("persisted layer: %s: unknown status %q", s.Address, s.Status)
		}
		ls := LayerSetting{Addr: a, Status: LayerStatus(s.Status), Desired: s.Desired,
			Planned: s.Planned, Reason: s.Reason, Fix: s.Fix, Sensitive: s.Sensitive, Range: s.Range.SourceRange()}
		for _, r := range s.Running {
			ls.Running = append(ls.Running, plans.InstanceValue(r))
		}
		for _, p := range s.Persisted {
			ls.Persisted = append(ls.Persisted, LayerValue(p))
		}
		out.Settings = append(out.Settings, ls)
	}
	return out, nil
}
