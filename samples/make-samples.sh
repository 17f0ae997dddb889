#!/usr/bin/env bash
# Renders the sample label photos in this folder. Deterministic: fixed text,
# fonts from Debian's fonts-dejavu-core, a fixed noise seed. Needs ImageMagick 6.
# Run from anywhere: samples/make-samples.sh
set -euo pipefail
cd "$(dirname "$0")"
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
BOLD=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf

# A fruit-candy back label: printed E-codes, the EU warning text, a warm
# background, a slight tilt, a lighting gradient, sensor noise and JPEG loss,
# as a phone photo of a small packet would have.
convert -size 900x420 xc:'#fff4d6' \
  -font "$BOLD" -pointsize 30 -fill '#3a2a1a' -annotate +40+60 'FRUIT CHEWS' \
  -font "$FONT" -pointsize 24 -fill '#2b2118' \
  -annotate +40+110 'Ingredients: sugar, glucose syrup, gelatine,' \
  -annotate +40+145 'acid: citric acid, fruit juice from concentrate 2%,' \
  -annotate +40+180 'flavourings, colours: E102, E129, glazing agent:' \
  -annotate +40+215 'carnauba wax.' \
  -annotate +40+265 'E102, E129: may have an adverse effect on' \
  -annotate +40+300 'activity and attention in children.' \
  -pointsize 20 -annotate +40+360 'Store in a cool, dry place. Net weight 150 g' \
  \( -size 900x420 gradient:'#ffffff'-'#b8b0a0' \) -compose multiply -composite \
  -background '#d9cdb4' -rotate 4 \
  -seed 7 -attenuate 0.4 +noise Gaussian \
  -blur 0x0.6 -quality 72 candy-label.jpg
echo "wrote samples/candy-label.jpg"

# The same photo as an iPhone saves it by default: HEIC (ImageMagick writes it through
# libheif's x265 encoder).
convert candy-label.jpg -quality 60 candy-label.heic
echo "wrote samples/candy-label.heic"

# A photo of the back of a packet that shows only the barcode (EAN-13), no
# ingredient list: the case where Ecodex must fall back to the barcode.
zint -b 13 -d 400638133393 --height 60 --scale 3 -o /tmp/ecodex-ean13.png >/dev/null
convert -size 900x600 xc:'#f3efe6' \
  -font "$BOLD" -pointsize 28 -fill '#3a2a1a' -annotate +60+90 'Best before: see top' \
  /tmp/ecodex-ean13.png -geometry +250+180 -composite \
  \( -size 900x600 gradient:'#ffffff'-'#c8c0b0' \) -compose multiply -composite \
  -background '#d9cdb4' -rotate -3 -seed 11 -attenuate 0.3 +noise Gaussian \
  -quality 80 barcode-only.jpg
rm -f /tmp/ecodex-ean13.png
echo "wrote samples/barcode-only.jpg"

# A US fruit-snack label that names carmine without its code or a class word
# (acceptance scenario 2: "Carmine" alone is the colour E120).
convert -size 900x300 xc:'#fdf6f0' \
  -font "$BOLD" -pointsize 28 -fill '#2b2118' -annotate +40+60 'BERRY BITES' \
  -font "$FONT" -pointsize 24 \
  -annotate +40+110 'INGREDIENTS: Sugar, corn syrup, modified corn' \
  -annotate +40+145 'starch, apple juice concentrate, citric acid,' \
  -annotate +40+180 'natural flavor, Carmine.' \
  \( -size 900x300 gradient:'#ffffff'-'#d0c8c0' \) -compose multiply -composite \
  -background '#e0d8cc' -rotate 2 -seed 5 -attenuate 0.3 +noise Gaussian \
  -quality 78 carmine-label.jpg
echo "wrote samples/carmine-label.jpg"
