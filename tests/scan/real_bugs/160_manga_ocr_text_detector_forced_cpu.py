# source: https://github.com/kha-white/mokuro/pull/104
# also: https://github.com/kha-white/mokuro/commit/cbfd3d46c7c162066cec709f9799915a77967610
# kind: hardcoded_cpu
# bug: the page OCR pipeline constructed its comic text detector with device="cpu" even though a force_cpu flag already existed for the OCR model, so detection never used an available GPU; the fix picks "cuda" when it is available and force_cpu is not set.
# split: test5
import logging

import torch

from comic_text_detector.inference import TextDetector
from manga_ocr import MangaOcr

logger = logging.getLogger(__name__)


class PageOcr:
    def __init__(self, detector_path, ocr_model="kha-white/manga-ocr-base",
                 input_size=1024, force_cpu=False, disable_ocr=False):
        self.disable_ocr = disable_ocr
        if not disable_ocr:
            logger.info("Initializing text detector")
            self.detector = TextDetector(
                model_path=detector_path, input_size=input_size, device="cpu", act="leaky"  # bug: hardcoded_cpu
            )
            self.ocr = MangaOcr(ocr_model, force_cpu)

    def __call__(self, image):
        if self.disable_ocr:
            return {"blocks": []}
        mask, _, blocks = self.detector(image, refine_mode=1, keep_undetected_mask=True)
        result = []
        for blk in blocks:
            x1, y1, x2, y2 = blk.xyxy
            crop = image[y1:y2, x1:x2]
            result.append({"box": [x1, y1, x2, y2], "text": self.ocr(crop)})
        return {"blocks": result, "mask_ratio": float(mask.mean()) if torch.is_tensor(mask) else None}
