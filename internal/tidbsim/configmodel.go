package tidbsim

// instanceConfig is an instance's config (filled in by the config model).
type instanceConfig struct{}

func (c *Cluster) initConfig(overrides []ConfigOverride) error {
	for _, in := range c.Instances {
		in.cfg = &instanceConfig{}
	}
	return nil
}
