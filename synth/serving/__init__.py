"""A library bootcamp served as production serves it, from a sandboxed method server: seeded
cases and prompts (:mod:`~synth.serving.sampling`) and multi-turn episodes
(:mod:`~synth.serving.rollout`). The export, the reward, review and the gate's
production-traffic checks all draw through here, so they see the same traffic."""
