import { StudyMessage } from '@/components/studies/study-message';

/** A study link that names no open study (a draft, a typo). */
export default function StudyLinkNotFound() {
  return (
    <StudyMessage title="This study link does not work" testId="study-link-gone">
      <p>Check the link you were given, or ask the researcher who sent it.</p>
    </StudyMessage>
  );
}
