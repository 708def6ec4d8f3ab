// Every Spanish text of the capture page: the same shape as ./en.ts (the compiler points at any
// text missing here). Usted throughout, as a bank or an employer would address the person.
import type { Strings } from './en.ts';

export const es: Strings = {
  pageTitle: 'Verificación de identidad',
  languageLabel: 'Idioma',
  help: 'Ayuda',
  helpTips: [
    'Use su teléfono si puede: su cámara saca fotos más nítidas. En un ordenador, escanee el código que muestra la página para continuar en el teléfono.',
    'Tome las fotos con buena luz, sin reflejos, con el documento entero o toda su cara dentro del marco.',
    'Si algo no funciona, cierre esta página y abra el enlace de nuevo: seguirá donde estaba.',
    'Para cualquier otra cosa, consulte al servicio que le envió este enlace.',
  ],
  loading: 'Cargando su verificación de identidad…',
  working: 'Espere, por favor…',
  tryAgain: 'Intentar de nuevo',
  continue: 'Continuar',

  // ended and unknown links
  unknownTitle: 'Este enlace no funciona',
  unknownBody:
    'No encontramos ninguna verificación de identidad para este enlace. Compruebe que abrió el enlace completo o pida uno nuevo al servicio que se lo envió.',
  endedTitle: {
    completed: 'Su verificación de identidad ha terminado',
    failed: 'No se pudo completar su verificación de identidad',
    expired: 'Este enlace ha caducado',
    abandoned: 'Esta verificación de identidad ha terminado',
    cancelled: 'Esta verificación de identidad se canceló',
    declined: 'Ha rechazado la verificación de identidad',
  },
  endedBody: {
    completed: 'No queda nada por hacer aquí. Puede cerrar esta página.',
    failed: 'El servicio que le envió aquí le dirá qué hacer. Puede cerrar esta página.',
    expired:
      'Los enlaces de verificación solo funcionan durante un tiempo limitado. Pida un enlace nuevo al servicio que se lo envió.',
    abandoned:
      'Quedó sin terminar demasiado tiempo. Pida un enlace nuevo al servicio que se lo envió.',
    cancelled: 'El servicio que le envió aquí la canceló. Puede cerrar esta página.',
    declined:
      'Se informará al servicio que le envió aquí de que usted la rechazó. Si cambia de opinión, pídale un enlace nuevo.',
  },
  backToService: 'Volver al servicio',
  networkTitle: 'No pudimos conectar con el servidor',
  networkBody: 'Compruebe su conexión a internet e inténtelo de nuevo.',
  outOfStepTitle: 'Este paso ya está hecho',
  outOfStepBody:
    'Puede que otra pestaña u otro dispositivo haya avanzado esta verificación. Inténtelo de nuevo para ver dónde está.',
  serverTitle: 'Algo falló por nuestra parte',
  serverBody: 'Inténtelo de nuevo dentro de un momento.',

  // desktop-to-phone handoff
  handoffTitle: 'Continúe en su teléfono',
  handoffBody:
    'La cámara de su teléfono saca fotos más nítidas de su documento. Escanee este código con la cámara del teléfono para abrir allí esta verificación.',
  handoffQrLabel: 'Código QR que abre esta verificación de identidad en un teléfono',
  handoffWaiting: 'Esta página se actualiza sola cuando termine en su teléfono.',
  handoffHere: 'Continuar en este dispositivo',
  handoffLinkLabel: 'O abra este enlace en su teléfono:',
  handoffCopy: 'Copiar el enlace',
  handoffCopied: 'Enlace copiado. Envíelo a su teléfono y ábralo allí.',
  handoffCopyFailed: 'No se pudo copiar el enlace: selecciónelo arriba y cópielo.',

  // consent
  consentTitle: 'Antes de empezar',
  consentAccept: 'Acepto, continuar',
  consentCheckbox: 'He leído esto y lo acepto',
  consentDecline: 'No estoy de acuerdo',
  privacyPolicy: 'Política de privacidad',
  privacyPolicyOf: 'Política de privacidad de {business}',
  declineTitle: '¿Detener la verificación de identidad?',
  declineBody:
    'Sin su acuerdo no podemos comprobar su identidad aquí. Si la detiene, se informará al servicio que le envió aquí de que usted la rechazó, y este enlace dejará de funcionar.',
  declineYes: 'Sí, detener',
  declineNo: 'Volver',
  consentText: {
    'biometric-consent-v1': [
      'Para comprobar que usted es la persona de su documento, tomamos fotos de su documento de identidad y de su cara.',
      'Comparamos la foto de su cara con el retrato de su documento y comprobamos que la foto se tomó a una persona presente. Esto usa datos biométricos: medidas de su cara.',
      'Las fotos se usan solo para esta verificación y se borran cuando termina. El servicio que le envió aquí recibe el resultado, no las fotos.',
      'Puede parar en cualquier momento cerrando esta página.',
    ],
  },

  // document type
  documentTitle: '¿Qué documento va a usar?',
  documentHint: 'Elija un documento vigente y a su nombre.',
  documentTypes: {
    DL: 'Permiso de conducir',
    IDCARD: 'Documento de identidad',
    PASSPORT: 'Pasaporte',
  },

  // capture
  sideTitle: {
    front: 'Parte delantera de su documento',
    back: 'Parte trasera de su documento',
    passport: 'Página de la foto de su pasaporte',
    selfie: 'Una foto de su cara',
  },
  sideHint: {
    front:
      'Ponga el documento sobre una superficie oscura y plana. Encájelo en el marco con las cuatro esquinas visibles.',
    back: 'Dé la vuelta al documento. Asegúrese de que el código de barras se vea nítido y entero dentro del marco.',
    passport:
      'Abra su pasaporte por la página de la foto. Encaje la página entera en el marco, incluidas las líneas de texto de abajo.',
    selfie: 'Mire de frente a la cámara, con buena luz y sin nada que le tape la cara.',
  },
  stepOf: 'Paso {current} de {total}',
  examplesTitle: 'Una buena foto y lo que debe evitar',
  examples: {
    good: 'Así',
    cutOff: 'Sin cortar',
    glare: 'Sin reflejos',
    blurred: 'Sin desenfoque',
    tooFar: 'No demasiado lejos',
    dark: 'No demasiado oscura',
    twoFaces: 'Solo usted',
  },
  otherDocument: 'Usar otro documento',
  useCamera: 'Usar la cámara',
  takePhoto: 'Tomar la foto',
  stopCamera: 'Cerrar la cámara',
  uploadPhoto: 'Subir una foto',
  uploadPhotoSelfie: 'Subir una foto de su cara',
  cameraVideoLabel: 'Vista de la cámara',
  cameraUnavailable:
    'No pudimos usar su cámara. Permita el acceso a la cámara en los ajustes del navegador o suba una foto.',
  faceAdvice: {
    noFace: 'Ponga su cara dentro del óvalo',
    manyFaces: 'Solo usted en la imagen',
    tooSmall: 'Acérquese',
    tooBig: 'Aléjese un poco',
    offCentre: 'Centre su cara en el óvalo',
    moving: 'No se mueva',
  },
  faceSteady: 'Bien: tome la foto ahora',
  faceSteadyAuto: 'No se mueva: tomando la foto',
  faceGuideUnavailable: 'La foto automática no funciona en este navegador: tómela con el botón.',
  preparing: 'Preparando su foto…',
  sending: 'Enviando su foto… {percent} %',
  stopSending: 'Dejar de enviar',
  uploading: 'Comprobando su foto…',
  sendingStopped: 'Envío detenido. No se ha gastado ningún intento.',
  sendingFailed:
    'La conexión se cortó mientras se enviaba su foto. Compruebe su conexión e inténtelo de nuevo: no se ha gastado ningún intento.',
  attemptsLeft: 'Intentos restantes: {count}',
  attemptsLeftOne: 'Este es su último intento.',

  // review
  reviewTitle: 'Revise su foto',
  reviewBody: '¿Se lee todo el texto, sin reflejos ni desenfoque, y se ve el documento entero?',
  reviewImageAlt: 'La foto que acaba de tomar',
  retake: 'Repetir',
  useThis: 'Usar esta foto',

  // problems with a photo
  problemTitle: 'Tome esta foto de nuevo, por favor',
  problems: {
    too_small:
      'La imagen es demasiado pequeña. Acérquese para que el documento llene el marco, o use una cámara mejor.',
    blurred:
      'La imagen está desenfocada. No se mueva y deje que la cámara enfoque antes de tomarla.',
    too_dark: 'La imagen está demasiado oscura. Busque un lugar con más luz.',
    too_bright:
      'La imagen tiene demasiada luz. Evite la luz directa y los reflejos en el documento.',
    no_face: 'No vimos ninguna cara. Mire de frente a la cámara con toda la cara dentro del marco.',
    multiple_faces: 'Vemos más de una cara. Asegúrese de que solo usted aparece en la foto.',
    face_cut_off:
      'Parte de su cara queda fuera de la foto. Sujete la cámara para que toda su cara quede dentro del encuadre.',
    face_too_small:
      'Su cara está demasiado lejos. Acerque la cámara para que su cara llene el óvalo.',
    barcode_unreadable:
      'No pudimos leer el código de barras. Asegúrese de que se vea nítido, entero y sin reflejos.',
    mrz_unreadable:
      'No pudimos leer las líneas de texto de abajo de la página. Asegúrese de que se vean nítidas y enteras.',
    not_an_image: 'Este archivo no es una imagen que podamos leer. Use una foto JPEG o PNG.',
    check_unavailable:
      'No pudimos comprobar esta foto ahora. Envíela de nuevo dentro de un momento; no gasta ningún intento.',
  },
  sideProblems: {
    front: {
      no_face:
        'No vimos el retrato de su documento. Encaje el documento entero en el marco, sin reflejos sobre la foto.',
    },
    passport: {
      no_face:
        'No vimos el retrato de la página de la foto. Encaje la página entera en el marco, sin reflejos sobre la foto.',
    },
  },
  fileTooLarge:
    'Esta foto es demasiado grande para enviarla, incluso reducida. Tome una foto nueva con menos resolución o elija otro archivo.',
  fileWrongType: 'Este archivo no es una imagen que podamos leer. Use una foto JPEG o PNG.',
  noAttemptsTitle: 'No pudimos aceptar esta foto',
  noAttemptsReason: 'La última foto se rechazó porque:',
  noAttemptsBody:
    'Ha usado todos los intentos para esta foto, así que esta verificación no se puede completar. El servicio que le envió aquí le dirá qué hacer y puede enviarle un enlace nuevo para intentarlo otra vez.',
  sendAnyway: 'Enviar lo que tengo',
  notAllowedNow:
    'Esta foto no se puede enviar ahora. Vuelva a cargar la página para ver dónde está.',

  // submit and after
  submitTitle: 'Listo para enviar',
  submitBody: 'Todas las fotos están listas. Envíelas para terminar su verificación de identidad.',
  submitIncompleteBody:
    'Una foto no se pudo aceptar y no le quedan intentos. Puede enviar lo que tiene; el servicio que le envió aquí le dirá qué hacer.',
  submit: 'Enviar',
  processingTitle: 'Comprobando su identidad…',
  processingBody: 'Suele tardar menos de un minuto. Mantenga esta página abierta.',
  finalTitle: {
    completed: 'Gracias, ha terminado',
    failed: 'No pudimos completar su verificación de identidad',
  },
  finalBody: {
    completed: 'Recibimos y comprobamos sus fotos. Puede cerrar esta página.',
    failed: 'El servicio que le envió aquí le dirá qué hacer.',
  },
  finalBodyBack: {
    completed: 'Recibimos y comprobamos sus fotos.',
    failed: 'El servicio del que viene le dirá qué hacer.',
  },
  redirecting: 'Le llevamos de vuelta en unos segundos…',
  redirectLink: 'Volver ahora',
};
