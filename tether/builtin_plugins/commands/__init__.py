"""The CLI's commands: chat/run, session inspection, context, compaction."""
