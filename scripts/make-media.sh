#!/usr/bin/env bash
# Generates the committed demo media under server/media/.
#
#   bash scripts/make-media.sh
#
# Needs only ffmpeg (with libx264, drawtext) and the DejaVu fonts.
# Idempotent: the output directory is deleted and rebuilt from scratch.
# All sources are synthetic (lavfi), so no input files are needed and there is
# nothing random to seed.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/server/media"
FONTS=/usr/share/fonts/truetype/dejavu
FONT_MONO="$FONTS/DejaVuSansMono-Bold.ttf" # fixed width: the timecode does not jitter
FONT_BOLD="$FONTS/DejaVuSans-Bold.ttf"
FONT_SANS="$FONTS/DejaVuSans.ttf"

DUR=60     # seconds of HLS content
SEG=4      # segment length, seconds
FPS=25     # 4 s = 100 frames exactly
GOP=$((SEG * FPS))
NSEG=$((DUR / SEG))
LOOPS=32   # long/ = 32 x 60 s = 1920 s (> 1800 s, for mid-roll tests)

# AAC at 32 kHz: 4 s = 128000 samples = exactly 125 AAC frames (1024 samples),
# so audio segments end exactly where video segments end (at 44.1/48 kHz they
# would drift by up to one frame).
AUDIO_RATE=32000
AUDIO_BITRATE=48k
# The AAC encoder prepends one frame (1024 samples) of priming. In fMP4 that
# frame is not hidden (hls.js/MSE ignore edit lists), so it is part of the
# timeline; the muxer shifts it to t=0. We therefore synthesise one frame less
# of audio so that priming + signal is exactly $DUR seconds and every audio
# segment is exactly 4.000 s (otherwise a 15th, 0.032 s segment appears).
AUDIO_DUR=$(awk -v d="$DUR" -v r="$AUDIO_RATE" 'BEGIN { printf "%.6f", d - 1024 / r }')

for f in "$FONT_MONO" "$FONT_BOLD" "$FONT_SANS"; do
  [[ -f $f ]] || { echo "missing font: $f (apt-get install fonts-dejavu-core)" >&2; exit 1; }
done
command -v ffmpeg >/dev/null || { echo "ffmpeg not found" >&2; exit 1; }

# Common flags: no metadata / encoder version strings, so reruns are stable.
FF=(ffmpeg -hide_banner -loglevel error -nostdin -y)
STABLE=(-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact)

# ---------------------------------------------------------------------------
# ads/: the reference ad server's creative (server/ads.mjs serves the VAST
# documents that point at it). 6 s, 640x360 H.264 + AAC, faststart, with
# 'РЕКЛАМА' burned in and the seconds left, so a screenshot tells ad from film.
# `bash scripts/make-media.sh ads` rebuilds only this part.
# ---------------------------------------------------------------------------
AD_DUR=6
make_ads() {
  mkdir -p "$OUT/ads"
  echo "ads/ad.mp4"
  local g
  g="color=c=0x7a1020:s=640x360:r=${FPS}:d=${AD_DUR},"
  g+="drawtext=fontfile=${FONT_BOLD}:fontsize=88:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2-30:text='РЕКЛАМА',"
  g+="drawtext=fontfile=${FONT_MONO}:fontsize=40:fontcolor=0xffd080:x=(w-text_w)/2:y=h*3/4"
  g+=":text='%{eif\\:${AD_DUR}-floor(t)\\:d}'[v]"
  "${FF[@]}" -filter_complex "$g" \
    -f lavfi -i "aevalsrc=exprs='0.2*sin(2*PI*523*t)':c=stereo:s=${AUDIO_RATE}:d=${AD_DUR}" \
    -map '[v]' -map 0:a -t "$AD_DUR" \
    -c:v libx264 -preset slow -profile:v main -pix_fmt yuv420p -crf 30 -maxrate 250k -bufsize 500k -g 50 \
    -c:a aac -profile:a aac_low -b:a 32k -ar "$AUDIO_RATE" -ac 2 \
    -movflags +faststart "${STABLE[@]}" "$OUT/ads/ad.mp4"
}
if [[ ${1:-} == ads ]]; then
  make_ads
  exit 0
fi

rm -rf "$OUT"
mkdir -p "$OUT"/hls/{video,audio,subs/rus} "$OUT"/long "$OUT"/desc "$OUT"/posters

# ---------------------------------------------------------------------------
# The picture: dark background, big running mm:ss timecode, a box that slides
# left to right once per 4 s segment (something moving, and it shows where in
# the segment we are), and an optional label in the top-left corner.
# Flat colours + little motion keep it very compressible.
# Prints a filtergraph whose output pad is [v].
# ---------------------------------------------------------------------------
picture() {
  local w=$1 h=$2 dur=$3 label=${4:-}
  local box=$((h / 8))
  local g
  g="color=c=0x1c2434:s=${w}x${h}:r=${FPS}:d=${dur}[bg];"
  g+="color=c=0xf0a020:s=${box}x${box}:r=${FPS}:d=${dur}[box];"
  g+="[bg][box]overlay=eval=frame:x='(W-w)*mod(t,${SEG})/${SEG}':y='H-h-H/16',"
  # In a filtergraph, ':' must be escaped even inside quotes (the option
  # parser splits on it); drawtext then sees %{eif:expr:d:2}.
  g+="drawtext=fontfile=${FONT_MONO}:fontsize=$((h / 4)):fontcolor=white"
  g+=":x=(w-text_w)/2:y=(h-text_h)/2"
  g+=":text='%{eif\\:floor(t/60)\\:d\\:2}\\:%{eif\\:mod(floor(t),60)\\:d\\:2}'"
  if [[ -n $label ]]; then
    g+=",drawtext=fontfile=${FONT_BOLD}:fontsize=$((h / 9)):fontcolor=0xffd080"
    g+=":x=h/25:y=h/25:text='${label}'"
  fi
  g+="[v]"
  printf '%s' "$g"
}

# Audio test signal (stereo, same signal in both channels).
#   rus: 440 Hz tone + a 0.12 s 880 Hz beep at the start of every second
#   eng: 660 Hz tone + two short 1320 Hz beeps every second
# They are easy to tell apart by ear and in a spectrum.
declare -A AUDIO_EXPR=(
  [rus]="0.2*sin(2*PI*440*t)+0.35*lt(mod(t,1),0.12)*sin(2*PI*880*t)"
  [eng]="0.2*sin(2*PI*660*t)+0.35*(lt(mod(t,1),0.08)+between(mod(t,1),0.16,0.24))*sin(2*PI*1320*t)"
)
declare -A AUDIO_LANG=([rus]=ru [eng]=en)
declare -A AUDIO_NAME=([rus]="Русский" [eng]="English")

audio_src() { # <lang> <duration>
  printf "aevalsrc=exprs='%s':c=stereo:s=%s:d=%s" "${AUDIO_EXPR[$1]}" "$AUDIO_RATE" "$2"
}

# HLS fMP4 (CMAF) output options shared by all renditions. make_zero puts the
# first timestamp at 0, so the first tfdt (baseMediaDecodeTime) is 0 and the
# subtitle X-TIMESTAMP-MAP below is simply MPEGTS:0.
hls_out() { # <dir>
  printf '%s\n' -avoid_negative_ts make_zero -output_ts_offset 0 \
    -f hls -hls_time "$SEG" -hls_segment_type fmp4 -hls_playlist_type vod \
    -hls_flags independent_segments \
    -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$1/seg_%03d.m4s" "$1/index.m3u8"
}

# ---------------------------------------------------------------------------
# HLS video renditions (video only)
# ---------------------------------------------------------------------------
# name  width height maxrate level
VIDEO_RENDITIONS=(
  "240p 426 240 150k 3.0"
  "360p 640 360 300k 3.0"
  "720p 1280 720 700k 3.1"
)
for r in "${VIDEO_RENDITIONS[@]}"; do
  read -r name w h maxrate level <<<"$r"
  dir="$OUT/hls/video/$name"
  mkdir -p "$dir"
  echo "video $name"
  mapfile -t hls_opts < <(hls_out "$dir")
  # -bf 0: without B-frames pts == dts, so the first sample's presentation
  #   time equals tfdt = 0 (with B-frames it would start at 0.08 s, and the
  #   video would not start exactly at 0). Costs a little size; the content is
  #   tiny anyway. No B-frames also means every GOP is closed (open-gop=0 is
  #   x264's default; stated for clarity).
  # -g/-keyint_min/-force_key_frames/-sc_threshold 0: an IDR exactly every
  #   4 s and nowhere else, so all renditions switch on the same boundaries.
  # crf + maxrate/bufsize: constant quality, capped so no segment is big.
  "${FF[@]}" -filter_complex "$(picture "$w" "$h" "$DUR" "$name")" -map '[v]' \
    -c:v libx264 -preset slow -profile:v high -level:v "$level" -pix_fmt yuv420p \
    -crf 23 -maxrate "$maxrate" -bufsize "$((${maxrate%k} * 2))k" \
    -bf 0 -g "$GOP" -keyint_min "$GOP" -sc_threshold 0 -x264-params open-gop=0 \
    -force_key_frames "expr:gte(t,n_forced*${SEG})" \
    "${STABLE[@]}" "${hls_opts[@]}"
done

# ---------------------------------------------------------------------------
# HLS audio renditions (audio only, AAC-LC stereo)
# ---------------------------------------------------------------------------
for lang in rus eng; do
  dir="$OUT/hls/audio/$lang"
  mkdir -p "$dir"
  echo "audio $lang"
  mapfile -t hls_opts < <(hls_out "$dir")
  "${FF[@]}" -f lavfi -i "$(audio_src "$lang" "$AUDIO_DUR")" \
    -c:a aac -profile:a aac_low -b:a "$AUDIO_BITRATE" -ar "$AUDIO_RATE" -ac 2 \
    "${STABLE[@]}" "${hls_opts[@]}"
done

# ---------------------------------------------------------------------------
# Subtitles (WebVTT): one cue per 4 s, text carries its own time range so a
# test can check that the cue shown at time T is the right one.
# ---------------------------------------------------------------------------
mmss() { printf '%02d:%02d' $(($1 / 60)) $(($1 % 60)); }
vtt_time() { printf '%02d:%02d:%02d.000' $(($1 / 3600)) $(($1 / 60 % 60)) $(($1 % 60)); }
cue() { # <start s> <end s>
  printf '%s --> %s\nСубтитры: %s – %s\n\n' "$(vtt_time "$1")" "$(vtt_time "$2")" "$(mmss "$1")" "$(mmss "$2")"
}

echo "subtitles"
# Whole-film file for a plain <track> (no HLS, so no X-TIMESTAMP-MAP).
{
  printf 'WEBVTT\n\n'
  for ((i = 0; i < NSEG; i++)); do cue $((i * SEG)) $(((i + 1) * SEG)); done
} >"$OUT/hls/subs/rus.vtt"
# An English whole-film file that only film 4's descriptor offers (the stream has no English subtitles).
{
  printf 'WEBVTT\n\n'
  for ((i = 0; i < NSEG; i++)); do cue $((i * SEG)) $(((i + 1) * SEG)); done | sed 's/^Субтитры:/Subtitles:/'
} >"$OUT/hls/subs/eng.vtt"

# HLS subtitle rendition: one VTT segment per 4 s media segment.
# X-TIMESTAMP-MAP maps cue time LOCAL 00:00:00.000 to media time MPEGTS (90 kHz).
# The fMP4 segments start at baseMediaDecodeTime 0 (see hls_out / -bf 0), and
# hls.js derives its initPTS from that first tfdt, so MPEGTS:0 puts each cue at
# exactly its written time. Cue times are absolute (not per-segment).
{
  printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:%d\n' "$SEG"
  printf '#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n'
  for ((i = 0; i < NSEG; i++)); do
    f=$(printf 'seg_%03d.vtt' "$i")
    {
      printf 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\n'
      cue $((i * SEG)) $(((i + 1) * SEG))
    } >"$OUT/hls/subs/rus/$f"
    printf '#EXTINF:%d.000000,\n%s\n' "$SEG" "$f"
  done
  printf '#EXT-X-ENDLIST\n'
} >"$OUT/hls/subs/rus/index.m3u8"

# ---------------------------------------------------------------------------
# Thumbnails: one 160x90 tile per 4 s (the frame at the start of the cue),
# 5 columns x 3 rows in one JPEG sprite, plus a WebVTT pointing into it.
# ---------------------------------------------------------------------------
echo "thumbnails"
TW=160 TH=90 TCOLS=5
TROWS=$(((NSEG + TCOLS - 1) / TCOLS))
"${FF[@]}" \
  -filter_complex "$(picture 640 360 "$DUR");[v]select='not(mod(n,${GOP}))',scale=${TW}:${TH},tile=${TCOLS}x${TROWS}[t]" \
  -map '[t]' -frames:v 1 -q:v 5 "${STABLE[@]}" "$OUT/hls/thumbs.jpg"

thumbs_vtt() { # <sprite uri> <loops>
  local i n=0 loop
  printf 'WEBVTT\n\n'
  for ((loop = 0; loop < $2; loop++)); do
    for ((i = 0; i < NSEG; i++, n++)); do
      printf '%s --> %s\n%s#xywh=%d,%d,%d,%d\n\n' \
        "$(vtt_time $((n * SEG)))" "$(vtt_time $(((n + 1) * SEG)))" "$1" \
        $((i % TCOLS * TW)) $((i / TCOLS * TH)) "$TW" "$TH"
    done
  done
}
thumbs_vtt thumbs.jpg 1 >"$OUT/hls/thumbs.vtt"
# The same tiles as the JSON list players also accept (SPEC §7), used by the long title.
thumbs_json() { # <sprite uri> <loops>
  local i n=0 loop sep=''
  printf '['
  for ((loop = 0; loop < $2; loop++)); do
    for ((i = 0; i < NSEG; i++, n++)); do
      printf '%s\n  {"url":"%s","startTime":%d,"endTime":%d,"width":%d,"height":%d,"coords":{"x":%d,"y":%d}}' \
        "$sep" "$1" $((n * SEG)) $(((n + 1) * SEG)) "$TW" "$TH" $((i % TCOLS * TW)) $((i / TCOLS * TH))
      sep=','
    done
  done
  printf '\n]\n'
}

# ---------------------------------------------------------------------------
# Multivariant playlists
# ---------------------------------------------------------------------------
# RFC 8216 CODECS for H.264 is avc1.PPCCLL: profile_idc, constraint flags and
# level_idc, read straight from the avcC box of the init segment (bytes 1..3
# after the box type).
avc_codec() {
  local off
  off=$(LC_ALL=C grep -obUa avcC "$1" | head -n1 | cut -d: -f1)
  printf 'avc1.%s' "$(od -An -tx1 -j $((off + 5)) -N3 "$1" | tr -d ' \n')"
}
AUDIO_CODEC=mp4a.40.2 # AAC-LC (forced with -profile:a aac_low above)

# "<peak> <average>" bit/s of a media playlist: peak = largest segment's
# bytes*8/EXTINF (what BANDWIDTH means), average = total bits / total time.
rates() {
  local dir=$1
  awk '/^#EXTINF:/ { sub(/^#EXTINF:/, ""); print $0 + 0; next } /^[^#]/ { print }' "$dir/index.m3u8" |
    while read -r dur && read -r uri; do echo "$dur $(stat -c %s "$dir/$uri")"; done |
    awk '{ r = $2 * 8 / $1; if (r > p) p = r; b += $2 * 8; t += $1 }
         END { printf "%d %d\n", p + 0.5, b / t + 0.5 }'
}

declare -A PEAK AVG CODEC RES
for r in "${VIDEO_RENDITIONS[@]}"; do
  read -r name w h _ <<<"$r"
  read -r PEAK[$name] AVG[$name] < <(rates "$OUT/hls/video/$name")
  CODEC[$name]=$(avc_codec "$OUT/hls/video/$name/init.mp4")
  RES[$name]="${w}x${h}"
done
for lang in rus eng; do
  read -r PEAK[$lang] AVG[$lang] < <(rates "$OUT/hls/audio/$lang")
done

# write_master <file> <uri prefix> <layout: hls|long> <default audio> <audio langs...>
# BANDWIDTH of a variant = video + the most demanding audio it may be paired with.
# layout hls:  <prefix>video/240p/index.m3u8 ...
# layout long: the flat long/ media playlists (video-240p.m3u8 ...)
write_master() {
  local file=$1 prefix=$2 layout=$3 default=$4
  shift 4
  local langs=("$@") lang name uri apeak=0 aavg=0 d heights
  if [[ $layout == long ]]; then heights=(240p 360p); else heights=(240p 360p 720p); fi
  for lang in "${langs[@]}"; do
    if ((PEAK[$lang] > apeak)); then apeak=${PEAK[$lang]}; fi
    if ((AVG[$lang] > aavg)); then aavg=${AVG[$lang]}; fi
  done
  {
    printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n'
    # Lets a player discover the thumbnail track (not interpreted by hls.js).
    printf '#EXT-X-SESSION-DATA:DATA-ID="com.embed-player.thumbnails",URI="%s"\n\n' \
      "$([[ $layout == long ]] && echo thumbs.json || echo "${prefix}thumbs.vtt")"
    for lang in "${langs[@]}"; do
      [[ $layout == long ]] && uri="audio-$lang.m3u8" || uri="${prefix}audio/$lang/index.m3u8"
      [[ $lang == "$default" ]] && d=YES || d=NO
      printf '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="%s",NAME="%s",DEFAULT=%s,AUTOSELECT=YES,CHANNELS="2",URI="%s"\n' \
        "${AUDIO_LANG[$lang]}" "${AUDIO_NAME[$lang]}" "$d" "$uri"
    done
    [[ $layout == long ]] && uri="subs-rus.m3u8" || uri="${prefix}subs/rus/index.m3u8"
    printf '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="ru",NAME="Русские",DEFAULT=NO,AUTOSELECT=YES,URI="%s"\n\n' "$uri"
    for name in "${heights[@]}"; do # lowest first: the first-listed variant is the usual start
      [[ $layout == long ]] && uri="video-$name.m3u8" || uri="${prefix}video/$name/index.m3u8"
      printf '#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,RESOLUTION=%s,CODECS="%s,%s",FRAME-RATE=%d.000,AUDIO="aud",SUBTITLES="subs"\n%s\n' \
        $((PEAK[$name] + apeak)) $((AVG[$name] + aavg)) "${RES[$name]}" "${CODEC[$name]}" "$AUDIO_CODEC" "$FPS" "$uri"
    done
  } >"$file"
}

echo "playlists"
write_master "$OUT/hls/master.m3u8" "" hls rus rus eng
# Two single-audio "sources" for a JSON master descriptor used by another title.
write_master "$OUT/desc/rus.m3u8" "../hls/" hls rus rus
write_master "$OUT/desc/eng.m3u8" "../hls/" hls eng eng

# ---------------------------------------------------------------------------
# long/: a 1920 s "film" made only of text. Each media playlist repeats the
# 60 s of hls/ segments $LOOPS times. Every repeat restarts its timestamps at
# 0, so it is a discontinuity: EXT-X-DISCONTINUITY, then EXT-X-MAP again.
# ---------------------------------------------------------------------------
long_playlist() { # <source dir relative to OUT/hls> <output file> <has init: 0|1>
  local src=$1 out=$2 map=$3 loop
  local base="../hls/$src"
  {
    printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:%d\n' "$SEG"
    printf '#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n'
    if ((map)); then printf '#EXT-X-INDEPENDENT-SEGMENTS\n'; fi
    for ((loop = 0; loop < LOOPS; loop++)); do
      if ((loop > 0)); then printf '#EXT-X-DISCONTINUITY\n'; fi
      if ((map)); then printf '#EXT-X-MAP:URI="%s/init.mp4"\n' "$base"; fi
      # Copy EXTINF lines, prefix segment URIs.
      awk -v base="$base" '/^#EXTINF:/ { print; next } /^[^#]/ { print base "/" $0 }' \
        "$OUT/hls/$src/index.m3u8"
    done
    printf '#EXT-X-ENDLIST\n'
  } >"$out"
}
long_playlist video/240p "$OUT/long/video-240p.m3u8" 1
long_playlist video/360p "$OUT/long/video-360p.m3u8" 1
long_playlist audio/rus "$OUT/long/audio-rus.m3u8" 1
long_playlist audio/eng "$OUT/long/audio-eng.m3u8" 1
long_playlist subs/rus "$OUT/long/subs-rus.m3u8" 0
thumbs_json ../hls/thumbs.jpg "$LOOPS" >"$OUT/long/thumbs.json"
write_master "$OUT/long/master.m3u8" "" long rus rus eng

# ---------------------------------------------------------------------------
# clip.mp4: 10 s progressive MP4, same look, label "MP4", rus audio.
# ---------------------------------------------------------------------------
echo "clip.mp4"
"${FF[@]}" -filter_complex "$(picture 640 360 10 MP4)" -f lavfi -i "$(audio_src rus 10)" \
  -map '[v]' -map 0:a \
  -c:v libx264 -preset slow -profile:v high -pix_fmt yuv420p -crf 23 -maxrate 300k -bufsize 600k \
  -g 50 -c:a aac -profile:a aac_low -b:a "$AUDIO_BITRATE" -ar "$AUDIO_RATE" -ac 2 \
  -movflags +faststart "${STABLE[@]}" "$OUT/clip.mp4"

# ---------------------------------------------------------------------------
# placeholder.mp4: 3 s, 320x180, "Контент недоступен", silent AAC track.
# It ships with the player (static/ → dist/), not with the catalogue's media:
# SPEC §4 plays it instead of content that is not available here.
# A single keyframe (-g covers the whole clip) and a still image make it tiny.
# ---------------------------------------------------------------------------
echo "placeholder.mp4"
"${FF[@]}" -filter_complex "color=c=0x15181d:s=320x180:r=${FPS}:d=3,drawtext=fontfile=${FONT_SANS}:fontsize=20:fontcolor=0xc8ccd4:x=(w-text_w)/2:y=(h-text_h)/2:text='Контент недоступен'[v]" \
  -f lavfi -i "anullsrc=r=${AUDIO_RATE}:cl=stereo" -map '[v]' -map 0:a -t 3 \
  -c:v libx264 -preset slow -profile:v high -pix_fmt yuv420p -crf 30 -tune stillimage -g 75 \
  -c:a aac -profile:a aac_low -b:a 16k -ar "$AUDIO_RATE" -ac 2 \
  -movflags +faststart "${STABLE[@]}" "$ROOT/static/placeholder.mp4"

# ---------------------------------------------------------------------------
# Posters: 640x360 JPEGs, one background colour + big title each.
# ---------------------------------------------------------------------------
echo "posters"
POSTERS=(
  "film-1   0x8a2b2b Фильм 1"
  "series-2 0x2b5a8a Сериал"
  "s1e1     0x2b6e4f S1E1"
  "s1e2     0x3f7a2b S1E2"
  "s1e3     0x6e6a2b S1E3"
  "s2e1     0x5a2b8a S2E1"
  "s2e2     0x8a2b6e S2E2"
  "s2e3     0x2b7a7a S2E3"
  "film-3   0x8a5a2b Фильм 3"
  "film-4   0x3a3f4a Фильм 4"
  "film-5   0x1f4f8a Фильм 5"
  "film-6   0x6b2b3f Фильм 6"
)
for p in "${POSTERS[@]}"; do
  read -r file color title <<<"$p"
  "${FF[@]}" -f lavfi -i "color=c=${color}:s=640x360" \
    -vf "drawtext=fontfile=${FONT_BOLD}:fontsize=80:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2-20:text='${title}',drawtext=fontfile=${FONT_SANS}:fontsize=22:fontcolor=white@0.7:x=(w-text_w)/2:y=h*3/4:text='embed-player demo'" \
    -frames:v 1 -q:v 6 "${STABLE[@]}" "$OUT/posters/$file.jpg"
done

make_ads

# ---------------------------------------------------------------------------
cat >"$OUT/README.md" <<EOF
# Demo media

Generated by \`bash scripts/make-media.sh\` (ffmpeg + DejaVu fonts only; the
script deletes and rebuilds this directory). Everything is synthetic.

- \`hls/master.m3u8\` - ${DUR} s HLS, fMP4/CMAF, ${SEG} s segments, an IDR every ${SEG} s.
  - video only: \`video/240p\`, \`video/360p\`, \`video/720p\` (H.264 High, ${FPS} fps,
    no B-frames); the picture shows a mm:ss timecode, the rendition label and a
    box that crosses the screen once per segment.
  - audio only (AAC-LC stereo ${AUDIO_RATE} Hz, ${AUDIO_BITRATE}): \`audio/rus\` (Русский,
    default; 440 Hz + one beep per second), \`audio/eng\` (English; 660 Hz + two beeps).
  - subtitles: \`subs/rus/index.m3u8\` (one WebVTT segment per ${SEG} s,
    \`X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\`, since the fMP4 media starts at 0);
    \`subs/rus.vtt\` has the same cues as a single file for a plain \`<track>\`; \`subs/eng.vtt\` is its
    English twin, offered only by film 4's descriptor.
    Cue text: "Субтитры: 00:04 – 00:08".
  - \`thumbs.vtt\` + \`thumbs.jpg\`: ${TW}x${TH} tiles, ${TCOLS} columns, one per ${SEG} s,
    announced in the master by \`EXT-X-SESSION-DATA\` \`com.embed-player.thumbnails\`.
- \`long/master.m3u8\` - $((DUR * LOOPS)) s "film" (240p, 360p, both audios, subtitles,
  thumbnails as the JSON list \`long/thumbs.json\` over \`hls/thumbs.jpg\`): text playlists repeating
  the \`hls/\` segments ${LOOPS} times with \`EXT-X-DISCONTINUITY\`. No media of its own.
- \`desc/rus.m3u8\`, \`desc/eng.m3u8\` - the \`hls/\` stream with only one audio rendition each.
- \`clip.mp4\` - 10 s progressive MP4 (640x360 H.264 + AAC, faststart), label "MP4".
- The player's own placeholder (\`static/placeholder.mp4\`, 3 s 320x180 "Контент недоступен") is made by the same script.
- \`posters/*.jpg\` - 640x360 posters.
- \`ads/ad.mp4\` - ${AD_DUR} s 640x360 H.264 + AAC ad creative, 'РЕКЛАМА' and the seconds left burned in (served by server/ads.mjs VAST documents).
EOF

echo "done: $(du -sh "$OUT" | cut -f1) in $OUT"
