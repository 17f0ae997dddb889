#!/bin/sh
# Rebuilds the rescan-prompt test photos (PromptCauseTests): one capture fault each, made with
# ImageMagick from the gold set's clean rendered label goldset/synth/g0101.jpg (ours, committed).
set -eu
cd "$(dirname "$0")"
S=../../../../goldset/synth/g0101.jpg
BG='#eef4fa'  # the label's paper
convert "$S" -blur 0x6 -quality 85 blurred.jpg
convert "$S" \( -size 1200x292 xc:black -fill white -draw "ellipse 600,146 330,160 0,360" -blur 0x10 -level 0%,60% \) \
    -compose Screen -composite -quality 85 glare.jpg
convert "$S" -virtual-pixel Background -background "$BG" -distort Arc 150 -quality 85 curved.jpg
convert "$S" -evaluate multiply 0.1 -attenuate 2 +noise Gaussian -quality 60 dark.jpg
