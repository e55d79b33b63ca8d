tiflash {
  profiles {
    default {
      max_memory_usage = 0
    }
  }
}
