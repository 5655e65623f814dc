// Icons of the lazy controls (see core/icons.tsx); apart so they stay off the critical path.
import { icon } from '../core/icons';

export const Back10Icon = icon('M12 5V1L7 6l5 5V7a6 6 0 1 1-6 6H4a8 8 0 1 0 8-8zm-1.1 11H10v-3.3L9 13v-.7l1.8-.7h.1V16zm4.3-1.8c0 .3 0 .6-.1.8l-.3.6-.4.3-.6.1-.6-.1-.4-.3-.3-.6-.1-.8v-.7c0-.3 0-.6.1-.8l.3-.6.4-.3.6-.1.6.1.4.3.3.6.1.8v.7zm-.9-.8-.1-.5-.1-.3-.2-.2h-.5l-.2.2-.1.3-.1.5v1l.1.5.1.3.2.2h.5l.2-.2.1-.3.1-.5v-1z');
export const Forward10Icon = icon('M18 13a6 6 0 1 1-6-6v4l5-5-5-5v4a8 8 0 1 0 8 8h-2zm-7.1 3H10v-3.3L9 13v-.7l1.8-.7h.1V16zm4.3-1.8c0 .3 0 .6-.1.8l-.3.6-.4.3-.6.1-.6-.1-.4-.3-.3-.6-.1-.8v-.7c0-.3 0-.6.1-.8l.3-.6.4-.3.6-.1.6.1.4.3.3.6.1.8v.7zm-.9-.8-.1-.5-.1-.3-.2-.2h-.5l-.2.2-.1.3-.1.5v1l.1.5.1.3.2.2h.5l.2-.2.1-.3.1-.5v-1z');
export const SettingsIcon = icon('M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.3 7.3 0 0 0-1.7-1L15 3h-4l-.4 2.9a7.3 7.3 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.3 7.3 0 0 0 1.7 1L11 21h4l.4-2.9a7.3 7.3 0 0 0 1.7-1l2.5 1 2-3.5L19.4 13zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z');
export const SubtitlesIcon = icon('M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zM4 12h4v2H4v-2zm10 6H4v-2h10v2zm6 0h-4v-2h4v2zm0-4H10v-2h10v2z');
export const PipIcon = icon('M19 11h-8v6h8v-6zm4 8V5a2 2 0 0 0-2-2H3a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h18a2 2 0 0 0 2-2zm-2 0H3V5h18v14z');
export const CastIcon = icon('M21 3H3a2 2 0 0 0-2 2v3h2V5h18v14h-7v2h7a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zM1 18v3h3a3 3 0 0 0-3-3zm0-4v2a5 5 0 0 1 5 5h2a7 7 0 0 0-7-7zm0-4v2a9 9 0 0 1 9 9h2A11 11 0 0 0 1 10z');
export const AirplayIcon = icon('M6 22h12l-6-6-6 6zM21 3H3a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h4v-2H3V5h18v12h-4v2h4a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2z');
export const BackIcon = icon('M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z');
export const ChevronIcon = icon('M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z');
export const CloseIcon = icon('M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4l5.6 5.6L5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6z');
