import { createContext, useContext } from "react";

/** The CSP nonce of the current server render; empty in the browser (browsers hide it anyway). */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
