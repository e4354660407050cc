"""tether-observation-masking: compaction that masks old tool outputs instead of summarizing
the conversation. The plugin is :mod:`tether_observation_masking.plugin`; the algorithm is
:mod:`tether_observation_masking.masking`."""

from __future__ import annotations

__version__ = "0.1.0"
