"""What a phone's camera reads from a QR code on a page: the image as
Chromium draws it (onto a canvas, four times its size, in grey), decoded
by ZXing (zxing-cpp), the reader many phone apps use."""

from __future__ import annotations

import base64

import zxingcpp
from playwright.sync_api import Locator

GREY = """img => {
    const scale = 4, width = img.naturalWidth * scale, height = img.naturalHeight * scale;
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    context.imageSmoothingEnabled = false;
    context.fillStyle = "#fff";
    context.fillRect(0, 0, width, height);
    context.drawImage(img, 0, 0, width, height);
    const rgba = context.getImageData(0, 0, width, height).data;
    let grey = "";
    for (let i = 0; i < rgba.length; i += 4) {
        grey += String.fromCharCode((rgba[i] + rgba[i + 1] + rgba[i + 2]) / 3 | 0);
    }
    return [width, height, btoa(grey)];
}"""


def read_qr(image: Locator) -> str:
    """The text of the one QR code in ``image`` (an <img> on the page)."""
    width, height, grey = image.evaluate(GREY)
    pixels = memoryview(base64.b64decode(grey)).cast("B", (height, width))
    [found] = zxingcpp.read_barcodes(pixels)
    assert found.format == zxingcpp.BarcodeFormat.QRCode
    return str(found.text)
