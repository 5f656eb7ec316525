# source: https://github.com/doccano/spacy-partial-tagger/pull/25
# also: https://github.com/doccano/spacy-partial-tagger/commit/da70d5222748cd8308a766ac566f15bcddfcec3e
# kind: inputs_not_moved
# bug: the thinc/spaCy transformer layer ran its wrapped PyTorch model on the GPU, but passed the Hugging Face tokenizer's CPU BatchEncoding straight to it ("Expected all tensors to be on the same device"); the fix moves the batch to thinc's default torch device with `.to(device)`.
# split: test3
from thinc.api import ArgsKwargs, Model, get_torch_default_device


def encode_docs(tokenizer, docs, max_length=None):
    texts = [doc.text for doc in docs]
    padding = "max_length" if max_length is not None else True
    batch = tokenizer(  # bug: inputs_not_moved
        texts,
        return_tensors="pt",
        return_offsets_mapping=tokenizer.is_fast,
        padding=padding,
        max_length=max_length,
        truncation=False,
    )
    return batch


def forward(model: Model, docs, is_train: bool):
    tokenizer = model.attrs["tokenizer"]
    batch = encode_docs(tokenizer, docs, model.attrs.get("max_length"))
    offsets = batch.pop("offset_mapping", None)
    wrapped = model.layers[0]
    hidden, backprop = wrapped(ArgsKwargs(args=(), kwargs=dict(batch)), is_train)

    def backward(d_hidden):
        return backprop(d_hidden)

    return (hidden, offsets), backward


def current_device():
    return get_torch_default_device()
