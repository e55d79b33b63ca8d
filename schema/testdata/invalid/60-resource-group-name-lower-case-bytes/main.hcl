# 11 letters, 22 bytes as written; lower-cased (U+2C65) they are 33 bytes.
resource_group "ȺȺȺȺȺȺȺȺȺȺȺ" {
  ru_per_sec = 100
}
