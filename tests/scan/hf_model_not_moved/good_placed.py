import torch
from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer, Trainer

tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
out = model.generate(**tokenizer("hi", return_tensors="pt").to(model.device))
moved = AutoModelForCausalLM.from_pretrained("gpt2").to("cuda")
moved.generate(max_new_tokens=5)
later = AutoModelForCausalLM.from_pretrained("gpt2")
later.cuda()
later(torch.tensor([[1, 2, 3]], device="cuda"))
clf = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
trainer = Trainer(model=clf)  # the Trainer places the model itself
