"""Adapters between the library and trainers (TRL; verl uses :func:`synth.reward.compute_score`)."""
