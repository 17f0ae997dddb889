print("scan: not wired yet")
