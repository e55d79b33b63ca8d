cluster "tokyo" {
  ignore "*" {
    reason = "ignore everything"
  }
  ignore "tkiv.gc.*" {
    reason = "gc tuned by hand"
  }
}
