// Palavras da caixa de entrada em português do Brasil, por chave (as mesmas de locale-en.js).
// Plurais com os sufixos do i18next: `_one`, `_other`.
export default {
  language: {
    label: 'Idioma',
  },
};
