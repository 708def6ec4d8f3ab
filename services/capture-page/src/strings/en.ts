// Every English text of the capture page, in one place. A translation is a file of the same shape
// (`Strings`), registered in ./index.ts. `{name}` placeholders are filled by `t(key, values)`.
import type { FinalSessionState } from '@idv/contracts/sessionStates';
import type { FaceAdvice } from '../face/guidance.ts';
import type { CaptureProblem, CaptureSide, Example, SessionDocumentType } from './types.ts';

export const en = {
  pageTitle: 'Identity check',
  languageLabel: 'Language',
  help: 'Help',
  helpTips: [
    'Use your phone if you can: its camera takes sharper pictures. On a computer, scan the code the page shows to continue on your phone.',
    'Take the photos in good light, without glare, with the whole document or your whole face inside the frame.',
    'If something does not work, close this page and open the link again: you go on where you were.',
    'For anything else, ask the service that sent you this link.',
  ],
  loading: 'Loading your identity check…',
  working: 'Please wait…',
  tryAgain: 'Try again',
  continue: 'Continue',

  // ended and unknown links
  unknownTitle: 'This link does not work',
  unknownBody:
    'We could not find an identity check for this link. Check that you opened the whole link, or ask the service that sent it for a new one.',
  endedTitle: {
    completed: 'Your identity check is complete',
    failed: 'Your identity check could not be completed',
    expired: 'This link has expired',
    abandoned: 'This identity check has ended',
    cancelled: 'This identity check was cancelled',
    declined: 'You declined the identity check',
  } satisfies Record<FinalSessionState, string>,
  endedBody: {
    completed: 'There is nothing more to do here. You can close this page.',
    failed:
      'The service that sent you here will tell you what to do next. You can close this page.',
    expired:
      'Links to an identity check only work for a limited time. Ask the service that sent it for a new link.',
    abandoned: 'It was left unfinished for too long. Ask the service that sent it for a new link.',
    cancelled: 'The service that sent you here cancelled it. You can close this page.',
    declined:
      'The service that sent you here is told that you declined. If you change your mind, ask it for a new link.',
  } satisfies Record<FinalSessionState, string>,
  backToService: 'Go back to the service',
  networkTitle: 'We could not reach the server',
  networkBody: 'Check your internet connection and try again.',
  outOfStepTitle: 'This step is already behind you',
  outOfStepBody:
    'Another tab or device may have moved this identity check on. Try again to see where it is.',
  serverTitle: 'Something went wrong on our side',
  serverBody: 'Please try again in a moment.',

  // desktop-to-phone handoff
  handoffTitle: 'Continue on your phone',
  handoffBody:
    'Your phone camera takes sharper pictures of your document. Scan this code with your phone camera to open this identity check there.',
  handoffQrLabel: 'QR code that opens this identity check on a phone',
  handoffWaiting: 'This page updates by itself when you finish on your phone.',
  handoffHere: 'Continue on this device',
  handoffLinkLabel: 'Or open this link on your phone:',
  handoffCopy: 'Copy the link',
  handoffCopied: 'Link copied. Send it to your phone, then open it there.',
  handoffCopyFailed: 'The link could not be copied: select it above and copy it.',

  // consent
  consentTitle: 'Before you start',
  consentAccept: 'I agree, continue',
  consentCheckbox: 'I have read and agree to this',
  consentDecline: 'I do not agree',
  privacyPolicy: 'Privacy policy',
  privacyPolicyOf: 'Privacy policy of {business}',
  declineTitle: 'Stop the identity check?',
  declineBody:
    'Without your agreement we cannot check your identity here. If you stop, the service that sent you here is told that you declined, and this link stops working.',
  declineYes: 'Yes, stop',
  declineNo: 'Go back',
  /** the consent texts by the version the server names (contracts CONSENT_TEXT_VERSION) */
  consentText: {
    'biometric-consent-v1': [
      'To check that you are the person on your document, we take photos of your identity document and of your face.',
      'We compare the photo of your face with the portrait on your document and check that the photo was taken of a live person. This uses biometric data: measurements of your face.',
      'The photos are used only for this identity check and are deleted when it ends. The service that sent you here receives the result, not the photos.',
      'You can stop at any time by closing this page.',
    ],
  } as Record<string, string[]>,

  // document type
  documentTitle: 'Which document will you use?',
  documentHint: 'Choose a document that is valid and in your name.',
  documentTypes: {
    DL: 'Driving licence',
    IDCARD: 'Identity card',
    PASSPORT: 'Passport',
  } satisfies Record<SessionDocumentType, string>,

  // capture
  sideTitle: {
    front: 'Front of your document',
    back: 'Back of your document',
    passport: 'Photo page of your passport',
    selfie: 'A photo of your face',
  } satisfies Record<CaptureSide, string>,
  sideHint: {
    front:
      'Place the document on a dark, flat surface. Fit it inside the frame with all four corners visible.',
    back: 'Turn the document over. Make sure the barcode is sharp and fully inside the frame.',
    passport:
      'Open your passport at the photo page. Fit the whole page, including the lines of text at the bottom, inside the frame.',
    selfie: 'Look straight at the camera, in good light, with nothing covering your face.',
  } satisfies Record<CaptureSide, string>,
  stepOf: 'Step {current} of {total}',
  examplesTitle: 'A good photo, and what to avoid',
  examples: {
    good: 'Like this',
    cutOff: 'Not cut off',
    glare: 'No glare',
    blurred: 'Not blurred',
    tooFar: 'Not too far',
    dark: 'Not too dark',
    twoFaces: 'Only you',
  } satisfies Record<Example, string>,
  otherDocument: 'Use another document',
  useCamera: 'Use the camera',
  takePhoto: 'Take photo',
  stopCamera: 'Close the camera',
  uploadPhoto: 'Upload a photo instead',
  uploadPhotoSelfie: 'Upload a photo of your face instead',
  cameraVideoLabel: 'Camera preview',
  cameraUnavailable:
    'We could not use your camera. Allow camera access in your browser settings, or upload a photo instead.',
  /** the selfie camera's face guidance, announced as it changes */
  faceAdvice: {
    noFace: 'Put your face in the oval',
    manyFaces: 'Only you in the frame',
    tooSmall: 'Move closer',
    tooBig: 'Move back a little',
    offCentre: 'Centre your face in the oval',
    moving: 'Hold still',
  } satisfies Record<Exclude<FaceAdvice, 'steady'>, string>,
  faceSteady: 'Good: take the photo now',
  faceSteadyAuto: 'Hold still: taking the photo',
  faceGuideUnavailable:
    'Automatic capture does not work in this browser: take the photo with the button.',
  preparing: 'Preparing your photo…',
  sending: 'Sending your photo… {percent}%',
  stopSending: 'Stop sending',
  uploading: 'Checking your photo…',
  sendingStopped: 'Sending stopped. No attempt was used.',
  sendingFailed:
    'The connection dropped while your photo was being sent. Check your connection and try again: no attempt was used.',
  attemptsLeft: 'Attempts left: {count}',
  attemptsLeftOne: 'This is your last attempt.',

  // review
  reviewTitle: 'Check your photo',
  reviewBody: 'Is all the text readable, without glare or blur, and is the whole document visible?',
  reviewImageAlt: 'The photo you just took',
  retake: 'Retake',
  useThis: 'Use this photo',

  // problems with a photo
  problemTitle: 'Please take this photo again',
  problems: {
    too_small:
      'The picture is too small. Move closer so the document fills the frame, or use a better camera.',
    blurred: 'The picture is blurred. Hold still and let the camera focus before you take it.',
    too_dark: 'The picture is too dark. Move to a brighter place.',
    too_bright: 'The picture is too bright. Avoid direct light and glare on the document.',
    no_face:
      'We could not see a face. Look straight at the camera with your whole face in the frame.',
    multiple_faces: 'We can see more than one face. Make sure only you are in the picture.',
    face_cut_off:
      'Part of your face is outside the picture. Hold the camera so your whole face is in the frame.',
    face_too_small:
      'Your face is too far away. Hold the camera closer, so your face fills the oval.',
    barcode_unreadable:
      'We could not read the barcode. Make sure it is sharp, fully visible and without glare.',
    mrz_unreadable:
      'We could not read the lines of text at the bottom of the page. Make sure they are sharp and fully visible.',
    not_an_image: 'This file is not a picture we can read. Use a JPEG or PNG photo.',
    check_unavailable:
      'We could not check this photo just now. Please send it again in a moment; this does not use up an attempt.',
  } satisfies Record<CaptureProblem, string>,
  /** advice that differs by side: on a document, a missing face is its portrait */
  sideProblems: {
    front: {
      no_face:
        'We could not see the portrait on your document. Fit the whole document in the frame, without glare on the photo.',
    },
    passport: {
      no_face:
        'We could not see the portrait on the photo page. Fit the whole page in the frame, without glare on the photo.',
    },
  } as Partial<Record<CaptureSide, Partial<Record<CaptureProblem, string>>>>,
  fileTooLarge:
    'This photo is too large to send, even after making it smaller. Take a new photo with a lower resolution, or choose another file.',
  fileWrongType: 'This file is not a picture we can read. Use a JPEG or PNG photo.',
  noAttemptsTitle: 'We could not accept this photo',
  noAttemptsReason: 'The last photo was refused because:',
  noAttemptsBody:
    'You have used all the attempts for this photo, so this identity check cannot be completed. The service that sent you here will tell you what to do next, and can send you a new link to try again.',
  sendAnyway: 'Send what I have',
  notAllowedNow: 'This photo cannot be sent now. Reload the page to see where you are.',

  // submit and after
  submitTitle: 'Ready to send',
  submitBody: 'All the photos are ready. Send them to finish your identity check.',
  submitIncompleteBody:
    'A photo could not be accepted and has no attempts left. You can send what you have; the service that sent you here will tell you what to do next.',
  submit: 'Send',
  processingTitle: 'Checking your identity…',
  processingBody: 'This usually takes less than a minute. Keep this page open.',
  finalTitle: {
    completed: 'Thank you, you are done',
    failed: 'We could not complete your identity check',
  },
  finalBody: {
    completed: 'Your photos were received and checked. You can close this page.',
    failed: 'The service that sent you here will tell you what to do next.',
  },
  /** the final words when the page takes the person back to the service (no "close this page") */
  finalBodyBack: {
    completed: 'Your photos were received and checked.',
    failed: 'The service you came from will tell you what to do next.',
  },
  redirecting: 'Taking you back in a few seconds…',
  redirectLink: 'Go back now',
};

/** The shape every locale fills. */
export type Strings = typeof en;
