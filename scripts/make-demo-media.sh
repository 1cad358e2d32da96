#!/usr/bin/env bash
# Makes the demo's media once: three short talking videos about retrieval evaluation, their
# WebVTT transcripts and demo/videos.jsonl. The outputs are committed; `npm run demo` needs
# neither espeak-ng nor ffmpeg. Needs: espeak-ng, ffmpeg, ffprobe (Debian:
# `apt-get install -y espeak-ng ffmpeg`), and the DejaVu font that comes with ffmpeg.
#
# Speech is made one sentence at a time from demo/text/<id>.txt (one sentence per line), each
# wav's length measured with ffprobe, the wavs joined with a short pause, and the cues written at
# the measured offsets, so the transcript times follow the speech. The picture is a plain colour
# with the title and the playback time drawn on every frame (a browser test can read where the
# player is). H.264 + AAC in MP4, 320x180 at 5 fps: a few hundred kB per video.
#
# Usage: scripts/make-demo-media.sh            (from anywhere; writes under demo/)
# Regenerating changes cue times slightly with another espeak-ng version: check
# demo/queries.jsonl's reference starts against the new transcripts afterwards.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
demo="$root/demo"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
gap=0.40          # seconds of silence after each sentence
rate=165          # espeak-ng words per minute
rate_hz=22050     # espeak-ng's native sample rate

for tool in espeak-ng ffmpeg ffprobe; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing (apt-get install -y espeak-ng ffmpeg)" >&2; exit 1; }
done
[ -f "$font" ] || { echo "error: font $font is missing (apt-get install -y fonts-dejavu-core)" >&2; exit 1; }

# id|title|background colour
videos=(
  "bm25|What is BM25|0x1e3a5f"
  "rrf|Reciprocal rank fusion|0x3f1e5f"
  "ndcg|Measuring with nDCG|0x1e5f3a"
)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$demo/media" "$demo/transcripts"

ffmpeg -v error -f lavfi -i "anullsrc=r=$rate_hz:cl=mono" -t "$gap" -c:a pcm_s16le "$work/gap.wav"

# WebVTT timestamp from seconds: HH:MM:SS.mmm
vtt_time() { awk -v s="$1" 'BEGIN { ms = int(s * 1000 + 0.5); printf "%02d:%02d:%02d.%03d", int(ms / 3600000), int(ms / 60000) % 60, int(ms / 1000) % 60, ms % 1000 }'; }
duration() { ffprobe -v error -show_entries format=duration -of default=noprint_wrappers=1:nokey=1 "$1"; }

: > "$work/videos.jsonl"
for spec in "${videos[@]}"; do
  IFS='|' read -r id title colour <<< "$spec"
  text="$demo/text/$id.txt"
  [ -f "$text" ] || { echo "error: $text is missing" >&2; exit 1; }
  echo "== $id: $title"

  vtt="$demo/transcripts/$id.vtt"
  printf 'WEBVTT\n' > "$vtt"
  : > "$work/$id.list"
  offset=0
  n=0
  while IFS= read -r sentence || [ -n "$sentence" ]; do
    [ -n "$sentence" ] || continue
    n=$((n + 1))
    wav="$work/$id-$n.wav"
    espeak-ng -v en-us -s "$rate" -w "$wav" "$sentence"
    d="$(duration "$wav")"
    end="$(awk -v a="$offset" -v b="$d" 'BEGIN { printf "%.3f", a + b }')"
    printf '\n%d\n%s --> %s\n%s\n' "$n" "$(vtt_time "$offset")" "$(vtt_time "$end")" "$sentence" >> "$vtt"
    printf "file '%s'\nfile '%s'\n" "$wav" "$work/gap.wav" >> "$work/$id.list"
    offset="$(awk -v a="$end" -v g="$gap" 'BEGIN { printf "%.3f", a + g }')"
  done < "$text"

  ffmpeg -v error -f concat -safe 0 -i "$work/$id.list" -c:a pcm_s16le "$work/$id.wav"
  total="$(duration "$work/$id.wav")"
  # Title on top, playback time (seconds with one decimal, and m:ss) below; both readable at 320x180.
  draw="drawtext=fontfile=$font:text='$title':fontcolor=white:fontsize=20:x=(w-text_w)/2:y=40"
  draw="$draw,drawtext=fontfile=$font:text='t=%{eif\:t\:d}.%{eif\:mod(t*10\,10)\:d} s':fontcolor=yellow:fontsize=28:x=(w-text_w)/2:y=90"
  draw="$draw,drawtext=fontfile=$font:text='%{pts\:hms}':fontcolor=white@0.7:fontsize=12:x=(w-text_w)/2:y=140"
  ffmpeg -v error -y \
    -f lavfi -i "color=c=$colour:s=320x180:r=5:d=$total" \
    -i "$work/$id.wav" \
    -vf "$draw" \
    -c:v libx264 -preset veryslow -tune stillimage -crf 32 -pix_fmt yuv420p -g 50 -threads 1 \
    -c:a aac -b:a 32k -ac 1 -ar 22050 \
    -shortest -movflags +faststart -map_metadata -1 \
    "$demo/media/$id.mp4"
  mp4_duration="$(duration "$demo/media/$id.mp4")"
  printf '{"id":"%s","title":"%s","path":"demo/media/%s.mp4","duration":%.2f}\n' "$id" "$title" "$id" "$mp4_duration" >> "$work/videos.jsonl"
  echo "   $n cues, speech ${total}s, $(du -k "$demo/media/$id.mp4" | cut -f1) kB"
done

cp "$work/videos.jsonl" "$demo/videos.jsonl"
echo "total media: $(du -ck "$demo"/media/*.mp4 | tail -1 | cut -f1) kB"
