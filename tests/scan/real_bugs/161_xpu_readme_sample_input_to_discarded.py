# source: https://github.com/intel/intel-extension-for-pytorch/pull/264
# also: https://github.com/intel/intel-extension-for-pytorch/pull/267
# kind: to_result_discarded
# bug: the GPU inference sample in the README moved the model with model = model.to("xpu") but called data.to("xpu") without assigning it, so the input stayed on the CPU and the forward pass raised "Input type (torch.FloatTensor) and weight type (XPUFloatType) should be the same"; the fix assigns data = data.to("xpu").
# split: test5
import torch
import torchvision.models as models

import intel_extension_for_pytorch as ipex


def main(device="xpu"):
    model = models.resnet50(weights="ResNet50_Weights.DEFAULT")
    model.eval()
    data = torch.rand(1, 3, 224, 224)

    model = model.to(device)
    data.to(device)  # bug: to_result_discarded
    model = ipex.optimize(model)

    with torch.no_grad():
        out = model(data)
    print(out.argmax(dim=1))


if __name__ == "__main__":
    main()
