// A VPAID 2.0 linear creative written for the player's tests: it plays the MP4 named in its
// AdParameters ({"mediaUrl": …}) in the player's video slot and reports the standard Ad* events.
// Loaded as a classic script inside the player's sandboxed VPAID frame.
/* eslint-disable no-var */
var getVPAIDAd = function () {
  var listeners = {};
  var video = null;
  var slot = null;
  var started = false;
  var stopped = false;
  var quartiles = { AdVideoFirstQuartile: 0.25, AdVideoMidpoint: 0.5, AdVideoThirdQuartile: 0.75 };
  var fired = {};
  var volume = 1;
  // What the player asked of the creative, for the tests to read inside the frame.
  var calls = (window.vpaidCalls = []);

  function emit(name) {
    var args = Array.prototype.slice.call(arguments, 1);
    (listeners[name] || []).forEach(function (l) {
      l.fn.apply(l.ctx, args);
    });
  }
  function stop(reason) {
    if (stopped) return;
    stopped = true;
    if (video) video.pause();
    emit(reason || 'AdStopped');
  }

  return {
    handshakeVersion: function () {
      return '2.0';
    },
    initAd: function (width, height, viewMode, desiredBitrate, creativeData, environmentVars) {
      calls.push(['initAd', width, height, viewMode]);
      var params;
      try {
        params = JSON.parse((creativeData && creativeData.AdParameters) || '{}');
      } catch (e) {
        emit('AdError', 'AdParameters are not JSON');
        return;
      }
      slot = environmentVars.slot;
      video = environmentVars.videoSlot;
      if (!video || !params.mediaUrl) {
        emit('AdError', 'no video slot or media');
        return;
      }
      video.volume = volume;
      video.addEventListener('canplaythrough', function once() {
        video.removeEventListener('canplaythrough', once);
        emit('AdLoaded');
      });
      video.addEventListener('playing', function () {
        if (!started) {
          started = true;
          emit('AdStarted');
          emit('AdImpression');
          emit('AdVideoStart');
        } else emit('AdPlaying');
      });
      video.addEventListener('pause', function () {
        if (!video.ended && !stopped) emit('AdPaused');
      });
      video.addEventListener('timeupdate', function () {
        var d = video.duration;
        if (!(d > 0)) return;
        Object.keys(quartiles).forEach(function (q) {
          if (!fired[q] && video.currentTime / d >= quartiles[q]) {
            fired[q] = true;
            emit(q);
          }
        });
        emit('AdRemainingTimeChange');
      });
      video.addEventListener('ended', function () {
        emit('AdVideoComplete');
        stop('AdStopped');
      });
      video.addEventListener('error', function () {
        emit('AdError', 'media error');
      });
      if (slot) {
        slot.addEventListener('click', function () {
          emit('AdClickThru', '', 'vpaid-test', true);
        });
      }
      video.src = params.mediaUrl;
      video.load();
    },
    startAd: function () {
      video.play().catch(function () {
        video.muted = true;
        video.play().catch(function (e) {
          emit('AdError', 'play refused: ' + e.message);
        });
      });
    },
    stopAd: function () {
      stop('AdStopped');
    },
    skipAd: function () {
      stop('AdSkipped');
    },
    pauseAd: function () {
      if (video) video.pause();
    },
    resumeAd: function () {
      if (video) video.play().catch(function () {});
    },
    resizeAd: function (width, height, viewMode) {
      calls.push(['resizeAd', width, height, viewMode]);
    },
    expandAd: function () {},
    collapseAd: function () {},
    subscribe: function (fn, event, ctx) {
      (listeners[event] = listeners[event] || []).push({ fn: fn, ctx: ctx });
    },
    unsubscribe: function (fn, event) {
      listeners[event] = (listeners[event] || []).filter(function (l) {
        return l.fn !== fn;
      });
    },
    getAdLinear: function () {
      return true;
    },
    getAdWidth: function () {
      return slot ? slot.clientWidth : 0;
    },
    getAdHeight: function () {
      return slot ? slot.clientHeight : 0;
    },
    getAdExpanded: function () {
      return false;
    },
    getAdSkippableState: function () {
      return false;
    },
    getAdRemainingTime: function () {
      return video && video.duration > 0 ? Math.max(0, video.duration - video.currentTime) : -2;
    },
    getAdDuration: function () {
      return video && video.duration > 0 ? video.duration : -2;
    },
    getAdVolume: function () {
      return volume;
    },
    setAdVolume: function (v) {
      volume = v;
      if (video) {
        video.volume = v;
        video.muted = v === 0;
      }
      emit('AdVolumeChange');
    },
    getAdCompanions: function () {
      return '';
    },
    getAdIcons: function () {
      return false;
    },
  };
};
