import type { IntroCredits } from './intro-credits';
import { ruUi } from '../i18n/ru-ui';

/**
 * 'Пропустить заставку', bottom right above the control bar, while the intro plays. After the jump the
 * player's frame keeps the focus (the button is gone), so the keys go on working.
 */
export function SkipIntro({ marks, frame }: { marks: IntroCredits; frame: HTMLElement | null }) {
  if (!marks.skipShown.value) return null;
  return (
    <button
      type="button"
      class="pl-skip-intro"
      data-action="skip-intro"
      onClick={(e) => {
        e.stopPropagation();
        marks.skipIntro();
        frame?.focus({ preventScroll: true });
      }}
    >
      {ruUi.skipIntro}
    </button>
  );
}
