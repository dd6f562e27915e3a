"""Talking to language models: the OpenAI-compatible client with its ledger and transcripts
(:mod:`~synth.models.llm`), the local llama.cpp server used when no endpoint is configured
(:mod:`~synth.models.local`), the prompt templates' loader (:mod:`~synth.models.prompts`) and
what is read out of a reply (:mod:`~synth.models.extract`)."""
