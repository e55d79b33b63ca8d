tikv { coprocessor { region-split-size = "256MiB" } }
