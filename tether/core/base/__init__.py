"""The bottom layer of the kernel: errors, paths and settings (imports no other layer)."""
