#!/usr/bin/env bash
# Generates the production-like bitrate ladder into .cache/media/ (outside git), for the reference
# server's titles 30 (the film), 31 (the same film looped to about 2 hours) and 32 (the small ladder).
#
#   bash scripts/make-ladder.sh            # .cache/media/ladder/: 240 s, 5 renditions 240p..1080p
#   bash scripts/make-ladder.sh --small    # .cache/media/ladder-small/: 96 s, 3 tiny renditions, for e2e
#   add --force to rebuild when the cache is up to date
#
# Reused when present: the output folder holds .stamp with the sha256 of this script's code (its lines
# but comments), so an edited script rebuilds and an unchanged one returns at once (scripts/ladder.mjs
# checks the same stamp).
# Deterministic: synthetic sources with fixed seeds and colours, bitexact muxing, one x264 thread per
# encoder (see below), so a rebuild is byte-identical.
# Needs only ffmpeg (libx264, drawtext) and the DejaVu fonts, like scripts/make-media.sh, whose
# layout this follows: fMP4 HLS, video-only and audio-only renditions, WebVTT subtitles, thumbnails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SELF="$ROOT/scripts/make-ladder.sh"
FONTS=/usr/share/fonts/truetype/dejavu
FONT_MONO="$FONTS/DejaVuSansMono-Bold.ttf"
FONT_BOLD="$FONTS/DejaVuSans-Bold.ttf"

SMALL=0 FORCE=0
for arg in "$@"; do
  case $arg in
    --small) SMALL=1 ;;
    --force) FORCE=1 ;;
    *) echo "usage: bash scripts/make-ladder.sh [--small] [--force]" >&2; exit 2 ;;
  esac
done

SEG=4   # segment length, seconds
FPS=25  # 4 s = 100 frames exactly
GOP=$((SEG * FPS))
# AAC at 48 kHz: 1024-sample frames do not divide 4 s, so audio segments end up to one frame
# (21 ms) off the video's boundaries, as in production; whole films still end together (see AUDIO_DUR).
AUDIO_RATE=48000

if ((SMALL)); then
  NAME=ladder-small
  DUR=96
  SRC_W=640 SRC_H=360 # the picture is drawn at the top rendition's size, then scaled down
  # name width height average-bitrate level
  VIDEO_RENDITIONS=(
    "90p 160 90 100k 1.1"
    "180p 320 180 400k 2.1"
    "360p 640 360 1200k 3.0"
  )
  # Busy scenes only: every rung spends its whole budget, so the three rates stay far apart.
  SCENES=("storm 1" "life 2" "storm 3" "life 4" "storm 5" "life 6" "storm 7" "life 8")
  # Nearly constant bitrate (maxrate 1.25x the average, a 1 s buffer): a switch is plain to see.
  MAXRATE_PCT=125 BUFSIZE_PCT=100
  # What each ffmpeg process encodes (they run in parallel).
  VIDEO_GROUPS=("90p 180p 360p")
  # lang channels bitrate
  AUDIO_TRACKS=("rus 2 64k")
  EXTRAS=0 # no subtitles, thumbnails or 5.1
else
  NAME=ladder
  DUR=240
  SRC_W=1920 SRC_H=1080
  VIDEO_RENDITIONS=(
    "240p 426 240 300k 3.0"
    "360p 640 360 700k 3.0"
    "480p 854 480 1200k 3.1"
    "720p 1280 720 2500k 3.1"
    "1080p 1920 1080 4500k 4.0"
  )
  # Calm and busy scenes in turn, 24 s each, so a rung's bitrate moves like a film's.
  SCENES=("dawn 1" "life 2" "zoom 3" "storm 4" "night 5" "cells 6" "dawn 7" "life 8" "zoom 9" "storm 10")
  AUDIO_TRACKS=("rus 2 128k" "eng 6 256k")
  # Capped VBR: maxrate twice the average with a buffer of 2 s at the average rate.
  MAXRATE_PCT=200 BUFSIZE_PCT=200
  # What each ffmpeg process encodes (they run in parallel): 1080p costs about as much as the rest.
  VIDEO_GROUPS=("1080p" "720p 480p 360p 240p")
  EXTRAS=1
fi
NSEG=$((DUR / SEG))
SCENE_DUR=$((DUR / ${#SCENES[@]}))
CACHE="$ROOT/.cache/media"
OUT="$CACHE/$NAME"
# Comments do not count: editing one keeps the cache.
HASH=$(grep -v '^[[:space:]]*#' "$SELF" | sha256sum | cut -d' ' -f1)

if ((!FORCE)) && [[ -f $OUT/.stamp && $(cat "$OUT/.stamp") == "$HASH" ]]; then
  echo "$OUT is up to date"
  exit 0
fi
for f in "$FONT_MONO" "$FONT_BOLD"; do
  [[ -f $f ]] || { echo "missing font: $f (apt-get install fonts-dejavu-core)" >&2; exit 1; }
done
command -v ffmpeg >/dev/null || { echo "ffmpeg not found (apt-get install ffmpeg)" >&2; exit 1; }

# Built aside and moved in place at the end: a folder under its final name is always complete.
WORK="$CACHE/.$NAME.tmp.$$"
# shellcheck disable=SC2046 # the background encoders' pids
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$WORK"' EXIT
rm -rf "$WORK"
mkdir -p "$WORK"
START=$SECONDS

FF=(ffmpeg -hide_banner -loglevel error -nostdin -y)
STABLE=(-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact)

# ---------------------------------------------------------------------------
# The picture: scenes of synthetic "footage" that cost real bits (texture, grain, motion), each
# drawn at SRC_WxSRC_H, concatenated, with a moving box, the scene's name and a big running mm:ss
# timecode on top. Prints a filtergraph whose output pad is [pic].
# ---------------------------------------------------------------------------
scene() { # <kind> <seed> <index>: a chain ending in [s<index>]
  local kind=$1 seed=$2 i=$3 w=$SRC_W h=$SRC_H d=$SCENE_DUR src grain
  # Smooth sources are drawn at a quarter of the size and scaled up (five times cheaper); the grain,
  # which is what costs bits, is added at full size.
  local small_w=$((SRC_W / 4)) small_h=$((SRC_H / 4)) up="scale=${SRC_W}:${SRC_H}:flags=bicubic"
  case $kind in
    # Calm: slowly turning soft gradients under film grain (without it a calm scene costs next to
    # nothing, which no real film does).
    # (gradients' colours default to "random", which ignores the seed: they are always given.)
    dawn) src="gradients=s=${small_w}x${small_h}:r=${FPS}:d=${d}:speed=0.004:c0=0xf4b26a:c1=0xc75b4a:c2=0x4a3a6e:nb_colors=3:seed=${seed},${up}" grain=12 ;;
    night) src="gradients=s=${small_w}x${small_h}:r=${FPS}:d=${d}:speed=0.006:c0=0x05070c:c1=0x1a2440:c2=0x0b0f18:nb_colors=3:type=1:seed=${seed},${up}" grain=14 ;;
    # Medium: a continuous zoom into the Mandelbrot set, smooth motion over fine detail.
    # (end_pts counts frames: the zoom reaches end_scale as the scene ends, still on the set's edge.)
    zoom) src="mandelbrot=s=${small_w}x${small_h}:r=${FPS}:maxiter=400:end_pts=$((d * FPS)):start_scale=2.5:end_scale=0.02,trim=duration=${d},${up}" grain=10 ;;
    # Busy: a crowd of cells living and dying, panned across, under grain.
    life) src="life=s=${small_w}x${small_h}:r=${FPS}:seed=${seed}:ratio=0.25:mold=25:life_color=0xe0c070:death_color=0x203040:mold_color=0x507090,trim=duration=${d},scale=${w}:${h}:flags=bilinear,scroll=h=0.0015:v=0.0007" grain=12 ;;
    cells) src="cellauto=s=${small_w}x${small_h}:r=${FPS}:seed=${seed}:rule=30,trim=duration=${d},colorchannelmixer=rr=0.3:gg=0.62:bb=0.28,scale=${w}:${h}:flags=bilinear,boxblur=2" grain=10 ;;
    # Very busy: fast-turning gradients drowned in heavy temporal noise (rain, snow, a storm).
    storm) src="gradients=s=${small_w}x${small_h}:r=${FPS}:d=${d}:speed=0.05:c0=0x2a3440:c1=0x8a98a8:c2=0x1c2028:c3=0x5a6878:nb_colors=4:type=2:seed=${seed},${up}" grain=30 ;;
    *) echo "unknown scene $kind" >&2; exit 1 ;;
  esac
  printf '%s,noise=alls=%d:allf=t+u:all_seed=%d,format=yuv420p,setsar=1[s%d];' "$src" "$grain" "$((seed * 7919))" "$i"
}

declare -A SCENE_TITLE=([dawn]="Рассвет" [night]="Ночь" [zoom]="Глубина" [life]="Город" [cells]="Лес" [storm]="Шторм")

picture() {
  local g='' i=0 s kind seed pads='' box=$((SRC_H / 8))
  for s in "${SCENES[@]}"; do
    read -r kind seed <<<"$s"
    g+=$(scene "$kind" "$seed" "$i")
    pads+="[s$i]"
    i=$((i + 1))
  done
  g+="${pads}concat=n=${#SCENES[@]}:v=1:a=0[film];"
  g+="color=c=0xf0a020:s=${box}x${box}:r=${FPS}:d=${DUR}[box];"
  # The box bounces across the frame: something with a clear edge that always moves.
  g+="[film][box]overlay=eval=frame:x='(W-w)*abs(mod(t/6,2)-1)':y='(H-h)*(0.5+0.4*sin(t*0.9))',"
  g+="drawtext=fontfile=${FONT_MONO}:fontsize=$((SRC_H / 5)):fontcolor=white:borderw=$((SRC_H / 120 + 1)):bordercolor=black"
  g+=":x=(w-text_w)/2:y=(h-text_h)/2"
  g+=":text='%{eif\\:floor(t/60)\\:d\\:2}\\:%{eif\\:mod(floor(t),60)\\:d\\:2}'"
  # The scene's name, from a table of scene start times.
  local expr='' n=0
  for s in "${SCENES[@]}"; do
    read -r kind _ <<<"$s"
    g+=",drawtext=fontfile=${FONT_BOLD}:fontsize=$((SRC_H / 14)):fontcolor=0xffd080:borderw=2:bordercolor=black"
    g+=":x=h/25:y=h-text_h-h/25:text='${SCENE_TITLE[$kind]}':enable='between(t,$((n * SCENE_DUR)),$(((n + 1) * SCENE_DUR)))'"
    n=$((n + 1))
  done
  g+="[pic]"
  printf '%s' "$g"
}

# ---------------------------------------------------------------------------
# Video. x264, capped VBR (1-pass average bitrate under a VBV cap, MAXRATE_PCT/BUFSIZE_PCT above): on
# the full ladder busy scenes peak near twice the average (at most 2.25x over a 4 s segment) and calm
# ones fall below it, as a film's do. Measured: 1080p segments from ~0.2 to 10 Mb/s around 4.5, 240p
# from ~40 to 670 kb/s around 280 (grain vanishes when scaled down, so calm scenes cost little there).
# -bf 0: the first sample's presentation time is 0 = tfdt (see make-media.sh); every GOP is closed.
# -g/-keyint_min/-sc_threshold 0/-force_key_frames: an IDR every 4 s and nowhere else, aligned across
# rungs. -threads 1: with VBV, x264's frame threads (and its slice threads) make the output depend on
# timing, so two runs differ; one thread per encoder is byte-stable. The two cores are used instead by
# two ffmpeg processes, each drawing the (deterministic) picture and encoding its share of the rungs.
# ---------------------------------------------------------------------------
hls_out() { # <dir>
  printf '%s\n' -avoid_negative_ts make_zero -output_ts_offset 0 \
    -f hls -hls_time "$SEG" -hls_segment_type fmp4 -hls_playlist_type vod \
    -hls_flags independent_segments \
    -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$1/seg_%03d.m4s" "$1/index.m3u8"
}

TW=160 TH=90 TCOLS=10
TROWS=$(((NSEG + TCOLS - 1) / TCOLS))

# encode_group <rendition names...>: one ffmpeg that draws the picture and encodes these renditions.
encode_group() {
  local graph outputs=() item name w h rate level kbps dir
  graph="$(picture);[pic]split=$#"
  for item in "$@"; do graph+="[p$item]"; done
  for item in "$@"; do
    read -r name w h rate level < <(printf '%s\n' "${VIDEO_RENDITIONS[@]}" | grep "^$item ")
    graph+=";[p$name]scale=${w}:${h}:flags=bicubic,"
    graph+="drawtext=fontfile=${FONT_BOLD}:fontsize=$((h / 9)):fontcolor=0xffd080:borderw=1:bordercolor=black:x=h/25:y=h/25:text='${name}'[v$name]"
    dir="$WORK/video/$name"
    mkdir -p "$dir"
    mapfile -t hls_opts < <(hls_out "$dir")
    kbps=${rate%k}
    outputs+=(-map "[v$name]" -c:v libx264 -threads 1 -preset veryfast -profile:v high -level:v "$level" -pix_fmt yuv420p
      -b:v "${kbps}k" -maxrate "$((kbps * MAXRATE_PCT / 100))k" -bufsize "$((kbps * BUFSIZE_PCT / 100))k"
      -bf 0 -g "$GOP" -keyint_min "$GOP" -sc_threshold 0 -x264-params open-gop=0
      -force_key_frames "expr:gte(t,n_forced*${SEG})" "${STABLE[@]}" "${hls_opts[@]}")
  done
  # exec: the background job is ffmpeg itself, so the EXIT trap can stop it.
  exec "${FF[@]}" -filter_complex "$graph" "${outputs[@]}"
}

echo "$NAME: video (${#VIDEO_RENDITIONS[@]} renditions, ${DUR} s)"
pids=()
for group in "${VIDEO_GROUPS[@]}"; do
  # shellcheck disable=SC2086 # a group is a list of words
  encode_group $group &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

# Stills, decoded from the renditions' keyframes (one at the start of every segment; -skip_frame
# nokey decodes nothing else). They are not outputs of the encoders above: ffmpeg feeds its outputs
# in step, and one that waits for a far frame (a poster, a sprite made at the end) makes it queue
# every other output's frames in memory meanwhile.
keyframes() { # <rendition> <first segment> <count>: the rendition's fMP4 from that segment, in a file
  local dir="$WORK/video/$1" i
  STILL_SRC="$WORK/still-src.mp4"
  cat "$dir/init.mp4" >"$STILL_SRC"
  for ((i = $2; i < $2 + $3; i++)); do cat "$(printf '%s/seg_%03d.m4s' "$dir" "$i")" >>"$STILL_SRC"; done
}
read -r top _ <<<"${VIDEO_RENDITIONS[-1]}"
# Poster: the frame at the start of the second scene's second segment, from the top rendition.
keyframes "$top" $((SCENE_DUR / SEG + 1)) 1
"${FF[@]}" -skip_frame nokey -i "$STILL_SRC" -vf scale=640:360 -frames:v 1 -q:v 4 "${STABLE[@]}" "$WORK/poster.jpg"
if ((EXTRAS)); then
  # Thumbnails: 160x90, one per segment, in one sprite (from 360p, plenty for 160x90).
  keyframes 360p 0 "$NSEG"
  "${FF[@]}" -skip_frame nokey -i "$STILL_SRC" -vf "scale=${TW}:${TH},tile=${TCOLS}x${TROWS}" -fps_mode passthrough \
    -frames:v 1 -q:v 5 "${STABLE[@]}" "$WORK/thumbs.jpg"
fi
rm "$STILL_SRC"

# ---------------------------------------------------------------------------
# Audio (AAC-LC): tones that tell the tracks apart by ear, over a bed of noise so the encoder spends
# its bitrate as on a real soundtrack.
#   rus, stereo: 440 Hz + an 880 Hz beep at the start of every second (as in make-media.sh)
#   eng, 5.1: 660 Hz front pair, two 1320 Hz beeps a second in the centre, 55 Hz in the LFE, noise
#   in the rear pair (so the player's down-mix to stereo has something to mix).
# The encoder prepends one frame (1024 samples) of priming that fMP4 keeps on the timeline: one
# frame less of signal makes every track exactly DUR seconds, like the video.
# ---------------------------------------------------------------------------
AUDIO_DUR=$(awk -v d="$DUR" -v r="$AUDIO_RATE" 'BEGIN { printf "%.6f", d - 1024 / r }')
NOISE='0.06*(2*random(0)-1)'
declare -A AUDIO_EXPR=(
  [rus]="0.2*sin(2*PI*440*t)+0.3*lt(mod(t,1),0.12)*sin(2*PI*880*t)+${NOISE}|0.2*sin(2*PI*440*t)+0.3*lt(mod(t,1),0.12)*sin(2*PI*880*t)+${NOISE}"
  [eng]="0.2*sin(2*PI*660*t)+${NOISE}|0.2*sin(2*PI*660*t)+${NOISE}|0.35*(lt(mod(t,1),0.08)+between(mod(t,1),0.16,0.24))*sin(2*PI*1320*t)|0.4*sin(2*PI*55*t)|0.15*(2*random(0)-1)|0.15*(2*random(1)-1)"
)
declare -A AUDIO_LAYOUT=([2]=stereo [6]=5.1)
declare -A AUDIO_LANG=([rus]=ru [eng]=en)
declare -A AUDIO_NAME=([rus]="Русский" [eng]="English")

for a in "${AUDIO_TRACKS[@]}"; do
  read -r lang channels rate <<<"$a"
  dir="$WORK/audio/$lang"
  mkdir -p "$dir"
  echo "$NAME: audio $lang (${AUDIO_LAYOUT[$channels]})"
  mapfile -t hls_opts < <(hls_out "$dir")
  "${FF[@]}" -f lavfi -i "aevalsrc=exprs='${AUDIO_EXPR[$lang]}':c=${AUDIO_LAYOUT[$channels]}:s=${AUDIO_RATE}:d=${AUDIO_DUR}" \
    -c:a aac -profile:a aac_low -b:a "$rate" -ar "$AUDIO_RATE" -ac "$channels" \
    "${STABLE[@]}" "${hls_opts[@]}"
done

# ---------------------------------------------------------------------------
# Subtitles and the thumbnail track (full ladder): as make-media.sh makes them, one cue per segment
# whose text carries its own time range.
# ---------------------------------------------------------------------------
mmss() { printf '%02d:%02d' $(($1 / 60)) $(($1 % 60)); }
vtt_time() { printf '%02d:%02d:%02d.000' $(($1 / 3600)) $(($1 / 60 % 60)) $(($1 % 60)); }
cue() { printf '%s --> %s\nСубтитры: %s – %s\n\n' "$(vtt_time "$1")" "$(vtt_time "$2")" "$(mmss "$1")" "$(mmss "$2")"; }

if ((EXTRAS)); then
  echo "$NAME: subtitles, thumbnails"
  mkdir -p "$WORK/subs/rus"
  {
    printf 'WEBVTT\n\n'
    for ((i = 0; i < NSEG; i++)); do cue $((i * SEG)) $(((i + 1) * SEG)); done
  } >"$WORK/subs/rus.vtt"
  {
    printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:%d\n' "$SEG"
    printf '#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n'
    for ((i = 0; i < NSEG; i++)); do
      f=$(printf 'seg_%03d.vtt' "$i")
      {
        printf 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\n'
        cue $((i * SEG)) $(((i + 1) * SEG))
      } >"$WORK/subs/rus/$f"
      printf '#EXTINF:%d.000000,\n%s\n' "$SEG" "$f"
    done
    printf '#EXT-X-ENDLIST\n'
  } >"$WORK/subs/rus/index.m3u8"
  {
    printf 'WEBVTT\n\n'
    for ((i = 0; i < NSEG; i++)); do
      printf '%s --> %s\nthumbs.jpg#xywh=%d,%d,%d,%d\n\n' "$(vtt_time $((i * SEG)))" "$(vtt_time $(((i + 1) * SEG)))" \
        $((i % TCOLS * TW)) $((i / TCOLS * TH)) "$TW" "$TH"
    done
  } >"$WORK/thumbs.vtt"
fi

# ---------------------------------------------------------------------------
# The multivariant playlist. BANDWIDTH = the rung's peak (its largest segment's bits over its
# duration) + the most demanding audio's peak; AVERAGE-BANDWIDTH likewise with averages (RFC 8216
# 4.3.4.2). CODECS from the init segments (avc1.PPCCLL from the avcC box).
# ---------------------------------------------------------------------------
avc_codec() {
  local off
  off=$(LC_ALL=C grep -obUa avcC "$1" | head -n1 | cut -d: -f1)
  printf 'avc1.%s' "$(od -An -tx1 -j $((off + 5)) -N3 "$1" | tr -d ' \n')"
}
rates() { # <dir> -> "<peak> <average>" bit/s
  awk '/^#EXTINF:/ { sub(/^#EXTINF:/, ""); print $0 + 0; next } /^[^#]/ { print }' "$1/index.m3u8" |
    while read -r dur && read -r uri; do echo "$dur $(stat -c %s "$1/$uri")"; done |
    awk '{ r = $2 * 8 / $1; if (r > p) p = r; b += $2 * 8; t += $1 }
         END { printf "%d %d\n", p + 0.5, b / t + 0.5 }'
}

apeak=0 aavg=0
for a in "${AUDIO_TRACKS[@]}"; do
  read -r lang _ <<<"$a"
  read -r p v < <(rates "$WORK/audio/$lang")
  ((p > apeak)) && apeak=$p
  ((v > aavg)) && aavg=$v
done
{
  printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n'
  if ((EXTRAS)); then
    printf '#EXT-X-SESSION-DATA:DATA-ID="com.embed-player.thumbnails",URI="thumbs.vtt"\n'
  fi
  printf '\n'
  first=1
  for a in "${AUDIO_TRACKS[@]}"; do
    read -r lang channels _ <<<"$a"
    ((first)) && d=YES || d=NO
    first=0
    printf '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="%s",NAME="%s",DEFAULT=%s,AUTOSELECT=YES,CHANNELS="%d",URI="audio/%s/index.m3u8"\n' \
      "${AUDIO_LANG[$lang]}" "${AUDIO_NAME[$lang]}" "$d" "$channels" "$lang"
  done
  subs=''
  if ((EXTRAS)); then
    printf '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="ru",NAME="Русские",DEFAULT=NO,AUTOSELECT=YES,URI="subs/rus/index.m3u8"\n'
    subs=',SUBTITLES="subs"'
  fi
  printf '\n'
  for r in "${VIDEO_RENDITIONS[@]}"; do # lowest first: the first-listed variant is the usual start
    read -r name w h _ <<<"$r"
    read -r p v < <(rates "$WORK/video/$name")
    printf '#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,RESOLUTION=%dx%d,CODECS="%s,mp4a.40.2",FRAME-RATE=%d.000,AUDIO="aud"%s\nvideo/%s/index.m3u8\n' \
      $((p + apeak)) $((v + aavg)) "$w" "$h" "$(avc_codec "$WORK/video/$name/init.mp4")" "$FPS" "$subs" "$name"
    echo "$NAME: $name average $((v / 1000)) kb/s, peak segment $((p / 1000)) kb/s" >&2
  done
} >"$WORK/master.m3u8"

echo "$HASH" >"$WORK/.stamp"
rm -rf "$OUT"
mv "$WORK" "$OUT"
trap - EXIT
echo "$NAME: done in $((SECONDS - START)) s, $(du -sh "$OUT" | cut -f1) in $OUT"
