# bitsandbytes quantisation places the weights on the GPU: no device_map needed.
from transformers import AutoModelForCausalLM, AutoTokenizer


def generate(path, prompt):
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, load_in_8bit=True)
    ids = tokenizer(prompt, return_tensors="pt").input_ids.to(model.device)
    return tokenizer.decode(model.generate(ids)[0])
