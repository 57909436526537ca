import Type from 'typebox';

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254, description: 'E-mail of an employee', examples: ['owner@shop.example'] }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const LoginResponse = Type.Object({
  token: Type.String({ description: 'Bearer token; send it as the header `Authorization: Bearer TOKEN`' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the token stops working' }),
});
