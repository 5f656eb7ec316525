# source: https://github.com/Nick088Official/SuperPrompt-v1/issues/1
# also: https://github.com/Nick088Official/SuperPrompt-v1/commit/cf7bc64c29cd0433218a2b028b3d1924d36560bb
# kind: model_not_moved
# bug: the Colab notebook chose `device` ("cuda" when available) and moved the tokenized prompt to it, but the T5 prompt-expansion model loaded with `from_pretrained` was never moved, so `generate` mixed CUDA input ids with CPU weights; the fix added `model.to(device)` after loading.
# split: test13
# (notebook cells flattened into a script)
import torch
from transformers import T5ForConditionalGeneration, T5Tokenizer

# --- cell 1: load dependencies and the model ---
if torch.cuda.is_available():
    device = "cuda"
    print("running on the GPU")
else:
    device = "cpu"
    print("running on the CPU")

tokenizer = T5Tokenizer.from_pretrained("google/flan-t5-small")
model = T5ForConditionalGeneration.from_pretrained(  # bug: model_not_moved
    "someone/prompt-expander-t5", torch_dtype=torch.float16
)
print("model downloaded")

# --- cell 2: run inference ---
prompt = "Expand the following prompt to add more detail: a lighthouse at dusk."
max_new_tokens = 384
repetition_penalty = 1.2
temperature = 0.5
top_p = 1.0
top_k = 1

input_ids = tokenizer(prompt, return_tensors="pt").input_ids.to(device)
outputs = model.generate(
    input_ids,
    max_new_tokens=max_new_tokens,
    repetition_penalty=repetition_penalty,
    do_sample=True,
    temperature=temperature,
    top_p=top_p,
    top_k=top_k,
)
raw = tokenizer.decode(outputs[0])
print(raw.replace("<pad>", "").replace("</s>", "").strip())
