"""The session tree over a store: leaf, appends, labels, names, fork/clone/export, listing."""
