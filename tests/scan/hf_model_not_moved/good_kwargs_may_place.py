# The loading options come from the caller and may carry device_map: the model's place is not
# known, so it is not reported as left on the CPU.
from transformers import AutoModelForCausalLM, AutoTokenizer


def load_and_generate(checkpoint, prompt, **load_options):
    model = AutoModelForCausalLM.from_pretrained(checkpoint, **load_options)
    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    ids = tokenizer(prompt, return_tensors="pt").input_ids.to(model.device)
    return tokenizer.decode(model.generate(ids)[0])
