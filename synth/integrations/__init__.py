"""Adapters between the library and trainers (TRL; verl uses :func:`synth.training.reward.compute_score`)."""
