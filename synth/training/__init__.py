"""The library as training material: rows for RL and SFT (:mod:`~synth.training.export`, one
machine or a Ray cluster), the reward a trainer calls (:mod:`~synth.training.reward`) with its
canaries, export spot-checks, dataset views, curricula and per-level calibration."""
