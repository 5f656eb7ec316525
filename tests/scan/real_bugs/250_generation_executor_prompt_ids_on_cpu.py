# source: https://github.com/neulab/prompt2model/issues/145
# also: https://github.com/neulab/prompt2model/commit/4ecc59cf52c790ff472e5431fb1b8963355f2655
# kind: inputs_not_moved
# bug: after the trainer had fine-tuned the model on CUDA, the generation model executor tokenized each test batch with `return_tensors="pt"` and passed the CPU `input_ids`/`attention_mask` straight to `model.generate`, so CI on a GPU runner crashed with tensors on two devices (issue #145: "the model trainer was on the CUDA device, but in the model executor we are generating tensors on the CPU"); the fix (shipped in PR #143) moves both tensors to `self.model.device` before generating.
# split: test11
from dataclasses import dataclass, field

import datasets
import torch
from transformers import AutoModelForSeq2SeqLM, AutoTokenizer


@dataclass
class Prediction:
    text: str
    confidence: float
    extra: dict = field(default_factory=dict)


class GenerationExecutor:
    def __init__(self, model, tokenizer, test_set, input_column="model_input", batch_size=8):
        self.model = model
        self.tokenizer = tokenizer
        self.test_set = test_set
        self.input_column = input_column
        self.batch_size = batch_size

    def predict(self):
        outputs = []
        n = len(self.test_set)
        for start in range(0, n, self.batch_size):
            batch = datasets.Dataset.from_dict(self.test_set[start:min(start + self.batch_size, n)])
            texts = batch[self.input_column]
            enc = self.tokenizer.batch_encode_plus(texts, truncation=True, padding=True, return_tensors="pt")
            input_ids = enc["input_ids"]
            attention_mask = enc["attention_mask"]
            generated = self.model.generate(input_ids=input_ids, attention_mask=attention_mask)  # bug: inputs_not_moved
            for i in range(len(texts)):
                probs = torch.softmax(generated[i].float(), dim=-1)
                outputs.append(Prediction(self.tokenizer.decode(generated[i], skip_special_tokens=True),
                                          probs.mean().item(), {"input_text": texts[i]}))
        return outputs


def train_then_predict(model_name, train_pairs, test_inputs, epochs=1):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = AutoTokenizer.from_pretrained(model_name)
    model = AutoModelForSeq2SeqLM.from_pretrained(model_name).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-5)
    model.train()
    for _ in range(epochs):
        for src, tgt in train_pairs:
            enc = tokenizer(src, return_tensors="pt").to(device)
            labels = tokenizer(tgt, return_tensors="pt").input_ids.to(device)
            loss = model(**enc, labels=labels).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    test_set = datasets.Dataset.from_dict({"model_input": test_inputs})
    return GenerationExecutor(model, tokenizer, test_set).predict()
