#!/usr/bin/env bash
# Renders aile-desktop.svg into the hicolor PNG sizes committed beside it. Run it after editing the
# SVG and commit the PNGs with it (needs rsvg-convert: apt-get install librsvg2-bin).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for size in 16 32 48 64 128 256; do
    mkdir -p "hicolor/${size}x${size}/apps"
    rsvg-convert --width "$size" --height "$size" --format png aile-desktop.svg \
        --output "hicolor/${size}x${size}/apps/aile-desktop.png"
done
echo "rendered: $(ls hicolor/*/apps/aile-desktop.png | tr '\n' ' ')"
