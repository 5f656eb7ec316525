import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype=torch.float16)  # expect: code.hf_model_not_moved
inputs = tokenizer("The GPU is", return_tensors="pt")
out = model.generate(**inputs, max_new_tokens=20)
print(tokenizer.decode(out[0]))


def embed(texts):
    from transformers import AutoModel
    encoder = AutoModel.from_pretrained("sentence-transformers/all-MiniLM-L6-v2")  # expect: code.hf_model_not_moved
    batch = tokenizer(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        return encoder(**batch).last_hidden_state.mean(1)
